// The confirm step of every console action: what it does, then Confirm or Cancel. The server's
// refusal (already translated) shows in the dialog, which stays open.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components';
import { errorMessage } from '../../lib/errors';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  body: string;
  /** Extra fields (the txid of a run settled as sent). */
  children?: ReactNode;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
  danger?: boolean;
}

export function ConfirmDialog({
  open,
  title,
  body,
  children,
  pending,
  error,
  onConfirm,
  onClose,
  danger = false,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      size="sm"
      footer={
        <>
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className={`btn ${danger ? 'btn--danger' : 'btn--primary'}`}
            disabled={pending}
            onClick={onConfirm}
          >
            {t('operator.confirm')}
          </button>
        </>
      }
    >
      <p>{body}</p>
      {children}
      {error ? (
        <p className="field__error" role="alert">
          {errorMessage(error, t)}
        </p>
      ) : null}
    </Modal>
  );
}
