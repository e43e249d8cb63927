import type { OperatorBans } from '@manjam/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner, Ltr, Spinner, Table } from '../../components';
import { formatDateTime } from '../../lib/format';
import type { NoticeApi } from '../miners/notice';
import { useLiftBan, useOperatorBans } from './api';
import { ConfirmDialog } from './ConfirmDialog';

type Ban = OperatorBans['items'][number];

export function BansSection({ notify }: { notify: NoticeApi['show'] }) {
  const { t } = useTranslation();
  const bans = useOperatorBans();
  const lift = useLiftBan();
  const [lifting, setLifting] = useState<string | null>(null);
  if (bans.isPending) return <Spinner size="lg" />;
  if (bans.isError)
    return <ErrorBanner message={t('operator.loadError')} onRetry={() => void bans.refetch()} />;
  if (!bans.data.available) return <p className="muted">{t('operator.bans.unavailable')}</p>;
  const dismiss = () => {
    setLifting(null);
    lift.reset();
  };
  return (
    <div className="operator-section">
      <Table<Ban>
        caption={t('operator.tabs.bans')}
        rows={bans.data.items}
        rowKey={(b) => `${b.scope}:${b.ip}:${b.login ?? ''}`}
        empty={t('operator.bans.none')}
        columns={[
          { key: 'ip', header: t('operator.bans.ip'), render: (b) => <Ltr>{b.ip}</Ltr> },
          {
            key: 'scope',
            header: t('operator.bans.scope'),
            render: (b) => t(b.scope === 'ip' ? 'operator.bans.scopeIp' : 'operator.bans.scopeConnection'),
          },
          {
            key: 'login',
            header: t('operator.bans.login'),
            render: (b) => (b.login ? <Ltr>{b.login}</Ltr> : t('common.notAvailable')),
          },
          { key: 'until', header: t('operator.bans.until'), render: (b) => formatDateTime(b.until) },
          {
            key: 'lift',
            header: t('operator.bans.lift'),
            render: (b) => (
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => setLifting(b.ip)}>
                {t('operator.bans.lift')}
              </button>
            ),
          },
        ]}
      />
      <ConfirmDialog
        open={lifting !== null}
        title={t('operator.bans.liftTitle', { ip: lifting ?? '' })}
        body={t('operator.bans.liftBody')}
        pending={lift.isPending}
        error={lift.error}
        onClose={dismiss}
        onConfirm={() => {
          if (!lifting) return;
          const ip = lifting;
          lift.mutate(
            { ip },
            {
              onSuccess: () => {
                dismiss();
                notify(t('operator.bans.lifted', { ip }));
              },
            },
          );
        }}
      />
    </div>
  );
}
