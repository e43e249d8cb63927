import { useTranslation } from 'react-i18next';
import { ErrorBanner, FiguresAge, Spinner, StatCard, Table } from '../../components';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useOperatorHealth } from './api';

type Chain = NonNullable<ReturnType<typeof useOperatorHealth>['data']>['chains'][number];
type Progress = NonNullable<ReturnType<typeof useOperatorHealth>['data']>['accounting'][number];

export function HealthSection() {
  const { t } = useTranslation();
  const health = useOperatorHealth();
  if (health.isPending) return <Spinner size="lg" />;
  if (health.isError)
    return <ErrorBanner message={t('operator.loadError')} onRetry={() => void health.refetch()} />;
  const h = health.data;
  return (
    <div className="operator-section">
      <FiguresAge
        at={h.asOf}
        behind={false}
        upTo={(time) => t('operator.health.readAt', { time })}
        late={(time) => t('operator.health.readAt', { time })}
      />
      <div className="stat-grid">
        <StatCard
          label={t('operator.health.status')}
          value={
            <span className={`badge badge--${h.status === 'ok' ? 'success' : 'warning'}`}>
              {t(h.status === 'ok' ? 'operator.health.ok' : 'operator.health.degraded')}
            </span>
          }
        />
        <StatCard
          label={t('operator.health.database')}
          value={`${h.database.kind}: ${t(h.database.ok ? 'operator.health.databaseUp' : 'operator.health.databaseDown')}`}
        />
        <StatCard label={t('operator.health.openAlerts')} value={formatNumber(h.openAlerts)} />
        <StatCard
          label={t('operator.health.backlog')}
          value={
            h.shareLogBacklog === null
              ? t('operator.health.backlogElsewhere')
              : formatNumber(h.shareLogBacklog)
          }
        />
      </div>
      <h2 className="section-title">{t('operator.health.chains')}</h2>
      <Table<Chain>
        caption={t('operator.health.chains')}
        rowKey={(c) => c.coin}
        rows={h.chains}
        columns={[
          { key: 'coin', header: t('operator.health.coin'), render: (c) => c.coin },
          {
            key: 'height',
            header: t('operator.health.height'),
            align: 'end',
            render: (c) => (c.height === null ? t('common.notAvailable') : formatNumber(c.height)),
          },
          {
            key: 'tips',
            header: t('operator.health.newTipsBy'),
            render: (c) => c.newTipsBy ?? t('common.notAvailable'),
          },
          {
            key: 'node',
            header: t('operator.health.node'),
            render: (c) =>
              c.ok ? (
                <span className="badge badge--success">{t('operator.health.nodeUp')}</span>
              ) : (
                <span className="badge badge--danger">
                  {c.downSince
                    ? t('operator.health.nodeDown', { since: formatDateTime(c.downSince) })
                    : (c.error ?? t('operator.health.databaseDown'))}
                </span>
              ),
          },
        ]}
      />
      <h2 className="section-title">{t('operator.health.accounting')}</h2>
      <Table<Progress>
        caption={t('operator.health.accounting')}
        rowKey={(p) => p.coin}
        rows={h.accounting}
        empty={t('operator.health.noAccounting')}
        columns={[
          { key: 'coin', header: t('operator.health.coin'), render: (p) => p.coin },
          {
            key: 'through',
            header: t('operator.health.creditedThrough'),
            render: (p) => formatDateTime(p.creditedThrough),
          },
          {
            key: 'behind',
            header: t('operator.health.behind'),
            align: 'end',
            render: (p) => t('operator.health.seconds', { value: formatNumber(p.behindSeconds) }),
          },
        ]}
      />
    </div>
  );
}
