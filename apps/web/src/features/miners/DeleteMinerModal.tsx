// Confirm Delete -> DELETE /api/miners/:id.
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components';
import { errorMessage } from '../../lib/errors';
import type { Miner } from '../api-types';
import { useDeleteMiner } from './api';
import type { NoticeApi } from './notice';

export function DeleteMinerModal({
  miner,
  onClose,
  notify,
}: {
  miner: Miner | null;
  onClose: () => void;
  notify: NoticeApi['show'];
}) {
  const { t } = useTranslation();
  const remove = useDeleteMiner();
  const confirm = (): void => {
    if (!miner) return;
    remove.mutate(miner.id, {
      onSuccess: () => {
        notify(t('miners.deleted'), 'success');
        onClose();
      },
      onError: (error) => notify(t('miners.deleteFailed', { message: errorMessage(error, t) }), 'error'),
    });
  };
  return (
    <Modal
      open={miner !== null}
      onClose={onClose}
      title={t('miners.deleteTitle')}
      size="sm"
      footer={
        <>
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            {t('miners.cancel')}
          </button>
          <button type="button" className="btn btn--danger" onClick={confirm} disabled={remove.isPending}>
            {t('miners.deleteButton')}
          </button>
        </>
      }
    >
      <p>{t('miners.deleteConfirm', { name: miner?.name ?? '' })}</p>
    </Modal>
  );
}
