import { useTranslation } from 'react-i18next';
import { Ltr, Private, Table, type Column } from '../../components';
import { formatCoin, formatHashrate, intlLocale } from '../../lib/format';
import type { Language } from '../../lib/api-types';
import type { Reward } from '../api-types';
import { formatDifficulty, formatSettlement } from './format';

export function RewardsTable({ rows, empty }: { rows: readonly Reward[]; empty: string }) {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(i18n.language === 'ar' ? 'ar' : ('en' satisfies Language));
  const columns: Column<Reward>[] = [
    {
      key: 'settled',
      header: t('revenue.columns.settlementTime'),
      render: (r) => <span className="tabular">{formatSettlement(r.settledAt, locale)}</span>,
    },
    {
      key: 'hashrate',
      header: t('revenue.columns.avgHashrate'),
      align: 'end',
      render: (r) => (
        <Private kind="hashrate">
          <Ltr mono={false} className="tabular">
            {formatHashrate(r.avgHashrate)}
          </Ltr>
        </Private>
      ),
    },
    {
      key: 'amount',
      header: t('revenue.columns.amount'),
      align: 'end',
      render: (r) => (
        <Private kind="balance">
          <Ltr mono={false} className="tabular">
            {formatCoin(r.amount, r.coin)}
          </Ltr>
        </Private>
      ),
    },
    {
      key: 'difficulty',
      header: t('revenue.columns.difficulty'),
      align: 'end',
      render: (r) => (
        <Ltr mono={false} className="tabular">
          {formatDifficulty(r.difficulty, locale)}
        </Ltr>
      ),
    },
    {
      key: 'description',
      header: t('revenue.columns.description'),
      render: (r) => t(`revenue.description.${r.description}`),
    },
  ];
  return (
    <Table
      caption={t('revenue.tabs.rewards')}
      columns={columns}
      rows={rows}
      rowKey={(r) => String(r.id)}
      empty={<p className="muted">{empty}</p>}
    />
  );
}
