import type { Block } from '@manjam/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner, Ltr, Spinner, Table } from '../../components';
import { formatCoin, formatDateTime, formatNumber, shortenTx } from '../../lib/format';
import { Pager } from '../revenue/Pager';
import { OPERATOR_PAGE_SIZE, useOperatorBlocks } from './api';

export function BlocksSection() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const blocks = useOperatorBlocks(page);
  if (blocks.isPending) return <Spinner size="lg" />;
  if (blocks.isError)
    return <ErrorBanner message={t('operator.loadError')} onRetry={() => void blocks.refetch()} />;
  return (
    <div className="operator-section">
      <Table<Block>
        caption={t('operator.tabs.blocks')}
        rows={blocks.data.items}
        rowKey={(b) => `${b.coin}:${b.hash}`}
        empty={t('operator.blocks.none')}
        columns={[
          { key: 'coin', header: t('stats.blockColumns.coin'), render: (b) => b.coin },
          {
            key: 'height',
            header: t('stats.blockColumns.height'),
            align: 'end',
            render: (b) => formatNumber(b.height),
          },
          {
            key: 'hash',
            header: t('stats.blockColumns.hash'),
            render: (b) => <Ltr title={b.hash}>{shortenTx(b.hash)}</Ltr>,
          },
          {
            key: 'status',
            header: t('stats.blockColumns.status'),
            render: (b) => (
              <span
                className={`badge badge--${b.status === 'confirmed' ? 'success' : b.status === 'orphaned' ? 'danger' : 'warning'}`}
              >
                {t(`stats.blockStatus.${b.status}`)}
              </span>
            ),
          },
          {
            key: 'confirmations',
            header: t('stats.blockColumns.confirmations'),
            align: 'end',
            render: (b) => t('units.confirmations', { count: b.confirmations }),
          },
          {
            key: 'effort',
            header: t('stats.blockColumns.effort'),
            align: 'end',
            render: (b) =>
              b.effort === null
                ? t('common.notAvailable')
                : `${formatNumber(b.effort * 100, undefined, { maximumFractionDigits: 1 })}%`,
          },
          {
            key: 'reward',
            header: t('stats.blockColumns.reward'),
            align: 'end',
            render: (b) => formatCoin(b.reward, b.coin),
          },
          { key: 'found', header: t('stats.blockColumns.foundAt'), render: (b) => formatDateTime(b.foundAt) },
        ]}
      />
      <Pager page={page} pageSize={OPERATOR_PAGE_SIZE} total={blocks.data.total} onPage={setPage} />
    </div>
  );
}
