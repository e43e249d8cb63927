// Four summary cards: Hashrate (per algorithm, 10 min and 24 h), Active Miners, Unpaid Balance,
// 24h Earnings (in the user's coin).
import { useTranslation } from 'react-i18next';
import { Ltr, Private, StatCard } from '../../components';
import { formatCoin, formatNumber } from '../../lib/format';
import type { DashboardResponse } from '../api-types';
import { AlgorithmHashrates } from '../hashrate/AlgorithmHashrates';
import { CreditedUpTo } from '../revenue/CreditedUpTo';
import { UnsettledFigures } from '../revenue/UnsettledFigures';

function asNumber(value: number | string): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : 0;
}

function coinText(value: number | string, coin: string): string {
  try {
    return formatCoin(String(value), coin);
  } catch {
    return `${String(value)} ${coin}`;
  }
}

export function SummaryCards({ data }: { data: DashboardResponse }) {
  const { t } = useTranslation();
  const label = t('dashboard.cards.changeLabel');
  const changeLabel = (_change: string) => label;
  return (
    <div className="stat-grid">
      <StatCard
        label={t('dashboard.cards.hashrate')}
        value={<AlgorithmHashrates hashrates={data.hashrates} />}
      />
      <StatCard
        label={t('dashboard.cards.activeMiners')}
        value={formatNumber(asNumber(data.activeMiners.value))}
        change={data.activeMiners.change}
        changeLabel={changeLabel(data.activeMiners.change)}
      />
      <StatCard
        label={t('dashboard.cards.unpaidBalance', { coin: data.coin })}
        value={
          <Private kind="balance">
            <Ltr mono={false}>{coinText(data.unpaidBalance.value, data.coin)}</Ltr>
          </Private>
        }
        change={data.unpaidBalance.change}
        changeLabel={changeLabel(data.unpaidBalance.change)}
        footer={<UnsettledFigures unsettled={data.unsettled} coin={data.coin} />}
      />
      <StatCard
        label={t('dashboard.cards.dailyEarnings', { coin: data.coin })}
        value={
          <Private kind="balance">
            <Ltr mono={false}>{coinText(data.dailyEarnings.value, data.coin)}</Ltr>
          </Private>
        }
        change={data.dailyEarnings.change}
        changeLabel={changeLabel(data.dailyEarnings.change)}
        footer={<CreditedUpTo figures={data.unsettled} />}
      />
    </div>
  );
}
