import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Ltr } from '../../components/Ltr';
import { Spinner } from '../../components/Spinner';
import { Table, type Column } from '../../components/Table';
import type { Block, PoolAlgorithmStats } from '../../lib/api-types';
import { algorithmLabel, schemeLabel } from '../../lib/algorithms';
import { errorMessage } from '../../lib/errors';
import {
  formatCoin,
  formatDateTime,
  formatDifficulty,
  formatHashrate,
  formatNumber,
  shortenTx,
} from '../../lib/format';
import { useBlocks, usePoolStats } from '../../lib/queries';
import { FiguresAsOf } from '../../features/hashrate/FigureStates';
import { nodeDifficulty } from '../mining/calculator';
import { PAGE_IDS } from '../mining/AlgorithmPage';

/** Rows whose algorithm has its own page link to it (the mining pages' one list). */
const ALGORITHM_PAGE_IDS: ReadonlySet<string> = new Set(PAGE_IDS);
const STATUS_TONE = { pending: 'warning', confirmed: 'success', orphaned: 'danger' } as const;

function safeCoin(amount: string, coin: string): string {
  try {
    return formatCoin(amount, coin);
  } catch {
    return `${amount} ${coin}`;
  }
}

function AlgorithmsTable() {
  const { t } = useTranslation();
  const stats = usePoolStats();
  if (stats.isPending) return <Spinner size="lg" />;
  if (stats.isError)
    return (
      <ErrorBanner
        message={errorMessage(stats.error, t, t('stats.loadError'))}
        onRetry={() => void stats.refetch()}
      />
    );
  const columns: Column<PoolAlgorithmStats>[] = [
    {
      key: 'algorithm',
      header: t('stats.columns.algorithm'),
      render: (row) =>
        ALGORITHM_PAGE_IDS.has(row.algorithm) ? (
          <Link to={`/mining/${row.algorithm}`}>{algorithmLabel(row.algorithm)}</Link>
        ) : (
          <strong>{algorithmLabel(row.algorithm)}</strong>
        ),
    },
    { key: 'coin', header: t('stats.columns.coin'), render: (row) => row.coin },
    { key: 'port', header: t('stats.columns.port'), align: 'end', render: (row) => <Ltr>{row.port}</Ltr> },
    {
      key: 'status',
      header: t('stats.columns.status'),
      render: (row) => (
        <span className={`badge badge--${row.live ? 'success' : 'muted'}`}>
          {row.live ? t('common.live') : t('common.notLive')}
        </span>
      ),
    },
    {
      key: 'hashrate',
      header: t('stats.columns.hashrate'),
      align: 'end',
      render: (row) => <Ltr mono={false}>{formatHashrate(row.hashrate)}</Ltr>,
    },
    {
      key: 'miners',
      header: t('stats.columns.miners'),
      align: 'end',
      render: (row) => formatNumber(row.miners),
    },
    {
      key: 'workers',
      header: t('stats.columns.workers'),
      align: 'end',
      render: (row) => formatNumber(row.workers),
    },
    {
      key: 'height',
      header: t('stats.columns.height'),
      align: 'end',
      render: (row) => (row.networkHeight === null ? '—' : formatNumber(row.networkHeight)),
    },
    {
      key: 'difficulty',
      header: t('stats.columns.difficulty'),
      align: 'end',
      render: (row) =>
        row.networkDifficulty === null ? (
          '—'
        ) : (
          // As the coin's node and explorers print it (Litecoin Core's unit, not the pool's Scrypt unit).
          <Ltr mono={false}>{formatDifficulty(nodeDifficulty(row.networkDifficulty, row.coin))}</Ltr>
        ),
    },
    {
      key: 'fee',
      header: t('stats.columns.fee'),
      align: 'end',
      render: (row) => (
        <Ltr mono={false}>{`${formatNumber(row.fee, undefined, { minimumFractionDigits: 1 })}%`}</Ltr>
      ),
    },
    {
      key: 'payout',
      header: t('stats.columns.payout'),
      render: (row) => t('units.hours', { count: row.payoutInterval }),
    },
    {
      key: 'scheme',
      header: t('stats.columns.scheme'),
      render: (row) => <Ltr mono={false}>{schemeLabel(row.scheme)}</Ltr>,
    },
  ];
  return (
    <>
      <p className="muted">
        {t('stats.host')}: <Ltr>{stats.data.host}</Ltr>
      </p>
      <Table
        caption={t('stats.algorithmsTitle')}
        columns={columns}
        rows={stats.data.algorithms}
        rowKey={(row) => `${row.algorithm}-${row.coin}`}
      />
      <FiguresAsOf asOf={stats.data.asOf} />
    </>
  );
}

function BlocksTable() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const blocks = useBlocks(page);
  if (blocks.isPending) return <Spinner size="lg" />;
  if (blocks.isError)
    return (
      <ErrorBanner
        message={errorMessage(blocks.error, t, t('stats.blocksError'))}
        onRetry={() => void blocks.refetch()}
      />
    );
  const { items, total, pageSize } = blocks.data;
  const columns: Column<Block>[] = [
    {
      key: 'height',
      header: t('stats.blockColumns.height'),
      align: 'end',
      render: (row) => <Ltr mono={false}>{row.height}</Ltr>,
    },
    { key: 'coin', header: t('stats.blockColumns.coin'), render: (row) => row.coin },
    {
      key: 'status',
      header: t('stats.blockColumns.status'),
      render: (row) => (
        <span className={`badge badge--${STATUS_TONE[row.status]}`}>
          {t(`stats.blockStatus.${row.status}`)}
        </span>
      ),
    },
    {
      key: 'confirmations',
      header: t('stats.blockColumns.confirmations'),
      render: (row) => t('units.confirmations', { count: row.confirmations }),
    },
    {
      key: 'reward',
      header: t('stats.blockColumns.reward'),
      align: 'end',
      render: (row) => <Ltr mono={false}>{safeCoin(row.reward, row.coin)}</Ltr>,
    },
    {
      key: 'finder',
      header: t('stats.blockColumns.finder'),
      render: (row) => (row.finder ? <Ltr>{row.finder}</Ltr> : '—'),
    },
    { key: 'foundAt', header: t('stats.blockColumns.foundAt'), render: (row) => formatDateTime(row.foundAt) },
    {
      key: 'effort',
      header: t('stats.blockColumns.effort'),
      align: 'end',
      render: (row) =>
        row.effort === null ? (
          '—'
        ) : (
          <Ltr
            mono={false}
          >{`${formatNumber(row.effort * 100, undefined, { maximumFractionDigits: 1 })}%`}</Ltr>
        ),
    },
    {
      key: 'hash',
      header: t('stats.blockColumns.hash'),
      render: (row) => <Ltr title={row.hash}>{shortenTx(row.hash)}</Ltr>,
    },
  ];
  const lastPage = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  return (
    <>
      <Table
        caption={t('stats.blocksTitle')}
        columns={columns}
        rows={items}
        rowKey={(row) => `${row.coin}-${row.height}-${row.hash}`}
        empty={<EmptyState title={t('stats.noBlocks')} message={t('stats.noBlocksText')} />}
      />
      {lastPage > 1 ? (
        <nav className="row pager" aria-label={t('stats.blocksTitle')}>
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            disabled={page <= 1}
            onClick={() => setPage((p) => p - 1)}
          >
            {t('stats.previous')}
          </button>
          <span className="tabular">{t('stats.page', { page })}</span>
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            disabled={page >= lastPage}
            onClick={() => setPage((p) => p + 1)}
          >
            {t('stats.next')}
          </button>
        </nav>
      ) : null}
    </>
  );
}

export default function StatsPage() {
  const { t } = useTranslation();
  return (
    <div className="container page stack">
      <header className="page__header">
        <h1>{t('stats.title')}</h1>
        <p className="page__lead">{t('stats.lead')}</p>
      </header>
      <section aria-labelledby="stats-algorithms">
        <h2 id="stats-algorithms">{t('stats.algorithmsTitle')}</h2>
        <AlgorithmsTable />
      </section>
      <section aria-labelledby="stats-blocks">
        <h2 id="stats-blocks">{t('stats.blocksTitle')}</h2>
        <BlocksTable />
      </section>
    </div>
  );
}
