import { coinColourOf } from '@manjam/contract';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr, Private, Table, type Column } from '../../components';
import { formatCoin, formatDate } from '../../lib/format';
import type { Payout } from '../api-types';
import { PayoutStatusBadge } from './PayoutStatusBadge';
import { PayoutTx } from './PayoutTx';

export function CoinTag({ coin }: { coin: string }) {
  const style = { '--coin-colour': coinColourOf(coin) } as CSSProperties;
  return (
    <span className="coin-tag" style={style}>
      {coin}
    </span>
  );
}

/** A payout row; a watcher link's rows carry no id (keyed by their place in the page). */
type PayoutRow = Omit<Payout, 'id'> & { id?: number };

export function PayoutsTable({ rows, empty }: { rows: readonly PayoutRow[]; empty: string }) {
  const { t } = useTranslation();
  const columns: Column<PayoutRow>[] = [
    {
      key: 'date',
      header: t('payouts.columns.date'),
      render: (p) => <span className="tabular">{formatDate(p.date)}</span>,
    },
    {
      key: 'amount',
      header: t('payouts.columns.amount'),
      align: 'end',
      render: (p) => (
        <Private kind="balance">
          <Ltr mono={false} className="tabular">
            {formatCoin(p.amount, p.coin)}
          </Ltr>
        </Private>
      ),
    },
    { key: 'coin', header: t('payouts.columns.coin'), render: (p) => <CoinTag coin={p.coin} /> },
    {
      key: 'tx',
      header: t('payouts.columns.txId'),
      render: (p) => <PayoutTx payout={p} />,
    },
    {
      key: 'status',
      header: t('payouts.columns.status'),
      render: (p) => <PayoutStatusBadge status={p.status} />,
    },
  ];
  return (
    <Table
      caption={t('payouts.title')}
      columns={columns}
      rows={rows}
      rowKey={(p) => (p.id === undefined ? `row-${rows.indexOf(p)}` : String(p.id))}
      empty={<p className="muted">{empty}</p>}
    />
  );
}
