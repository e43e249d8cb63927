import { TOP_WORKER_WINDOWS, type TopWorkers, type TopWorkerWindow } from '@manjam/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner, Ltr, Select, Spinner, Table } from '../../components';
import { formatDateTime, formatHashrate } from '../../lib/format';
import { useTopWorkers } from './api';

type Worker = TopWorkers['items'][number];

/** The fastest workers of all accounts, ranked over the last 10 minutes or the last hour. */
export function TopWorkersSection() {
  const { t } = useTranslation();
  const [span, setSpan] = useState<TopWorkerWindow>('10m');
  const top = useTopWorkers(span);
  return (
    <div className="operator-section">
      <div className="operator-toolbar">
        <Select<TopWorkerWindow>
          label={t('operator.workers.rankBy')}
          value={span}
          onChange={setSpan}
          options={TOP_WORKER_WINDOWS.map((w) => ({ value: w, label: t(`operator.workers.windows.${w}`) }))}
        />
      </div>
      {top.isPending ? (
        <Spinner size="lg" />
      ) : top.isError ? (
        <ErrorBanner message={t('operator.loadError')} onRetry={() => void top.refetch()} />
      ) : (
        <Table<Worker>
          caption={t('operator.tabs.workers')}
          rows={top.data.items}
          rowKey={(w) => String(w.workerId)}
          empty={t('operator.workers.none')}
          columns={[
            {
              key: 'account',
              header: t('operator.workers.account'),
              render: (w) => (
                <span className="operator-hash">
                  {w.account ? <Ltr>{w.account}</Ltr> : t('operator.workers.noAccount')}
                  {w.address ? (
                    <>
                      {' '}
                      <Ltr className="muted" title={w.address}>
                        {w.address}
                      </Ltr>
                    </>
                  ) : null}
                </span>
              ),
            },
            { key: 'worker', header: t('operator.workers.worker'), render: (w) => <Ltr>{w.worker}</Ltr> },
            {
              key: 'coin',
              header: t('operator.workers.coin'),
              render: (w) => `${w.coin} · ${t(`miners.algorithms.${w.algorithm}`)}`,
            },
            {
              key: 'realtime',
              header: t('operator.workers.windows.10m'),
              align: 'end',
              render: (w) => <Ltr>{formatHashrate(w.realtime)}</Ltr>,
            },
            {
              key: 'hour',
              header: t('operator.workers.windows.1h'),
              align: 'end',
              render: (w) => <Ltr>{formatHashrate(w.hour)}</Ltr>,
            },
            {
              key: 'last',
              header: t('operator.workers.lastShare'),
              render: (w) => (w.lastShareAt ? formatDateTime(w.lastShareAt) : t('common.notAvailable')),
            },
          ]}
        />
      )}
    </div>
  );
}
