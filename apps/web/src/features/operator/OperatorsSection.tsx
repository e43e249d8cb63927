import type { OperatorRoleRequest } from '@manjam/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components';
import type { NoticeApi } from '../miners/notice';
import { useSetOperatorRole } from './api';
import { ConfirmDialog } from './ConfirmDialog';

type Action = OperatorRoleRequest['action'];

/** Grant or revoke the operator role by email (POST /api/operator/operators), after a confirm. */
export function OperatorsSection({ notify }: { notify: NoticeApi['show'] }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [asking, setAsking] = useState<Action | null>(null);
  const role = useSetOperatorRole();
  const target = email.trim();
  const dismiss = () => {
    setAsking(null);
    role.reset();
  };
  const ask = (action: Action) => (event?: FormEvent) => {
    event?.preventDefault();
    if (target !== '') setAsking(action);
  };
  return (
    <div className="operator-section">
      <p className="muted">{t('operator.operators.intro')}</p>
      <form className="operator-role" onSubmit={ask('grant')}>
        <TextField
          label={t('operator.operators.email')}
          value={email}
          onChange={setEmail}
          type="email"
          autoComplete="off"
          spellCheck={false}
          ltr
        />
        <div className="operator-role__actions">
          <button type="submit" className="btn btn--primary btn--sm" disabled={target === ''}>
            {t('operator.operators.grant')}
          </button>
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            disabled={target === ''}
            onClick={ask('revoke')}
          >
            {t('operator.operators.revoke')}
          </button>
        </div>
      </form>
      <ConfirmDialog
        open={asking !== null}
        title={t(asking === 'revoke' ? 'operator.operators.revokeTitle' : 'operator.operators.grantTitle', {
          email: target,
        })}
        body={t(asking === 'revoke' ? 'operator.operators.revokeBody' : 'operator.operators.grantBody')}
        pending={role.isPending}
        error={role.error}
        danger={asking === 'revoke'}
        onClose={dismiss}
        onConfirm={() => {
          if (!asking) return;
          const action = asking;
          role.mutate(
            { email: target, action },
            {
              onSuccess: (answer) => {
                dismiss();
                setEmail('');
                notify(
                  t(action === 'grant' ? 'operator.operators.granted' : 'operator.operators.revoked', {
                    email: answer.email,
                  }),
                );
              },
            },
          );
        }}
      />
    </div>
  );
}
