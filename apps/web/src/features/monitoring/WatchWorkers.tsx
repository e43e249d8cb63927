import { useTranslation } from 'react-i18next';
import { ErrorBanner, Ltr, Spinner, Table, type Column } from '../../components';
import type { WatchWorkers } from '../../lib/api-types';
import { formatHashrate, formatRelative } from '../../lib/format';
import { OverLast } from '../hashrate/AlgorithmHashrates';
import { FiguresAsOf } from '../hashrate/FigureStates';
import { useWatchWorkers } from './watch-api';

type Row = WatchWorkers['workers'][number];

/** The link's coins' workers by name (never `username.worker`): status, hashrates, last share. */
export function WatchWorkersSection({ token }: { token: string }) {
  const { t } = useTranslation();
  const workers = useWatchWorkers(token, true);
  const columns: Column<Row>[] = [
    { key: 'name', header: t('watch.columns.worker'), render: (w) => <bdi>{w.name}</bdi> },
    { key: 'coin', header: t('watch.columns.coin'), render: (w) => w.coin },
    { key: 'status', header: t('watch.columns.status'), render: (w) => t(`watch.status.${w.status}`) },
    {
      key: 'hashrate',
      header: t('watch.columns.hashrate'),
      align: 'end',
      render: (w) => (
        <>
          <Ltr mono={false}>{formatHashrate(w.hashrate)}</Ltr>
          <OverLast seconds={w.averagedSeconds?.realtime} window="realtime" />
        </>
      ),
    },
    {
      key: 'hashrate24h',
      header: t('watch.columns.hashrate24h'),
      align: 'end',
      render: (w) => (
        <>
          <Ltr mono={false}>{formatHashrate(w.hashrate24h)}</Ltr>
          <OverLast seconds={w.averagedSeconds?.day} window="day" />
        </>
      ),
    },
    {
      key: 'lastSeen',
      header: t('watch.columns.lastSeen'),
      render: (w) => (w.lastSeen ? formatRelative(w.lastSeen) : '—'),
    },
  ];
  return (
    <section className="watch__section" aria-labelledby="watch-workers">
      <h2 id="watch-workers">{t('monitoring.pages.workers')}</h2>
      {workers.isPending ? <Spinner /> : null}
      {workers.isError ? <ErrorBanner message={t('watch.loadError')} /> : null}
      {workers.data ? (
        <Table
          columns={columns}
          rows={workers.data.workers}
          rowKey={(w) => `${w.coin}:${w.name}`}
          caption={t('monitoring.pages.workers')}
          empty={t('watch.noWorkers')}
        />
      ) : null}
      {workers.data ? <FiguresAsOf asOf={workers.data.asOf} /> : null}
    </section>
  );
}
