// /workers/:id: one worker — status, hashrate over 10 min / 1 h / 24 h, reject rate, shares, and a
// chart of its hashrate every 10 minutes over the last 24 hours (GET /api/workers/:id).
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorBanner, Ltr, Private, Spinner, StatCard } from '../../components';
import { ApiError } from '../../lib/api';
import { formatDateTime, formatHashrate, formatNumber } from '../../lib/format';
import type { Worker } from '../../features/api-types';
import { useLiveUpdates } from '../../features/dashboard/liveUpdates';
import { HashrateChart } from '../../features/hashrate/HashrateChart';
import { OverLast } from '../../features/hashrate/AlgorithmHashrates';
import { FiguresAsOf } from '../../features/hashrate/FigureStates';
import { WorkerSharesAge } from '../../features/hashrate/SharesAge';
import { StatusDot } from '../../features/miners/MinersTable';
import { useWorkerDetail } from '../../features/workers/api';
import { WorkerAlertsForm } from '../../features/alerts/WorkerAlertsForm';
import '../../features/dashboard/screens.css';
import '../../features/miners/miners.css';
import '../../features/setup-guide/setup-guide.css';

/** The averagedSeconds window of each hashrate card. */
const WINDOW_OF = { hashrate: 'realtime', hashrate1h: 'hour', hashrate24h: 'day' } as const;

function Facts({ worker }: { worker: Worker }) {
  const { t } = useTranslation();
  const rows: [string, ReactNode][] = [
    [t('workers.details.fullName'), <Ltr>{worker.fullName}</Ltr>],
    [t('workers.details.algorithm'), t(`miners.algorithms.${worker.algorithm}`)],
    [t('workers.details.shares'), <span className="tabular">{formatNumber(worker.shares)}</span>],
    [t('workers.details.rejects'), <span className="tabular">{formatNumber(worker.rejects)}</span>],
    [
      t('workers.details.rejectRate'),
      <Ltr mono={false} className="tabular">
        {formatNumber(worker.rejectRate, undefined, { maximumFractionDigits: 1 })}%
      </Ltr>,
    ],
    [
      t('workers.details.change'),
      worker.change === 'new' ? (
        t('common.changeNew')
      ) : (
        <Ltr mono={false} className="tabular">
          {worker.change}
        </Ltr>
      ),
    ],
    [t('workers.details.lastSeen'), worker.lastSeen ? formatDateTime(worker.lastSeen) : t('workers.never')],
  ];
  return (
    <dl className="pool-info">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function WorkerDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const detail = useWorkerDetail(id);
  useLiveUpdates();
  const worker = detail.data?.worker;
  const missing = detail.error instanceof ApiError && detail.error.status === 404;

  return (
    <div className="container page">
      <header className="screen-header">
        <h1>{worker ? t('workers.details.title', { name: worker.name }) : t('workers.title')}</h1>
        <div className="screen-actions">
          <Link className="btn btn--ghost" to="/workers">
            {t('workers.details.back')}
          </Link>
        </div>
      </header>
      {detail.isPending && Number.isInteger(id) ? <Spinner size="lg" /> : null}
      {missing || !Number.isInteger(id) ? <ErrorBanner message={t('workers.details.notFound')} /> : null}
      {detail.isError && !missing ? (
        <ErrorBanner message={t('workers.details.loadError')} onRetry={() => void detail.refetch()} />
      ) : null}
      {worker && detail.data ? (
        <div className="stack">
          <div className="stat-grid">
            <StatCard
              label={t('workers.details.status')}
              value={<StatusDot status={worker.status} label={t(`workers.status.${worker.status}`)} />}
            />
            {(['hashrate', 'hashrate1h', 'hashrate24h'] as const).map((key) => (
              <StatCard
                key={key}
                label={t(`workers.columnLabels.${key}`)}
                value={
                  <Private kind="hashrate">
                    <Ltr mono={false}>{formatHashrate(worker[key])}</Ltr>
                    <OverLast seconds={worker.averagedSeconds?.[WINDOW_OF[key]]} window={WINDOW_OF[key]} />
                  </Private>
                }
              />
            ))}
          </div>
          <WorkerSharesAge worker={worker} />
          <FiguresAsOf asOf={detail.data.asOf} />
          <section className="card stack" aria-labelledby="worker-chart-title">
            <h2 id="worker-chart-title">{t('workers.details.chartTitle')}</h2>
            <HashrateChart
              points={detail.data.points}
              algorithm={worker.algorithm}
              empty={t('workers.details.chartEmpty')}
            />
          </section>
          <section className="card">
            <Facts worker={worker} />
          </section>
          <WorkerAlertsForm workerId={id} />
        </div>
      ) : null}
    </div>
  );
}
