// Revenue summary: per coin the unpaid balance with today's accrued and immature block credits.
import { useTranslation } from 'react-i18next';
import { ErrorBanner, Ltr, Private, StatCard } from '../../components';
import { useAuth } from '../../lib/auth';
import { formatCoin, formatDateTime } from '../../lib/format';
import type { RevenueSummary } from '../api-types';
import { useRevenueSummary } from './api';
import { UnsettledFigures } from './UnsettledFigures';
import './money.css';

type CoinSummary = RevenueSummary['coins'][number];

const hasMoney = (c: CoinSummary): boolean =>
  c.balance !== '0' || c.accrued !== '0' || c.immature !== '0' || c.immatureBlocks > 0;

/** Coins with any money; the preferred coin (else the first) when there is none yet. */
export function shownCoins(summary: RevenueSummary, preferred: string | undefined): CoinSummary[] {
  const some = summary.coins.filter(hasMoney);
  if (some.length > 0) return some;
  const first = summary.coins.find((c) => c.coin === preferred) ?? summary.coins[0];
  return first ? [first] : [];
}

/** When the open day closes into a reward row (the day after it began). */
export function nextClose(summary: RevenueSummary): string | null {
  const since = summary.coins[0]?.accruedSince;
  return since ? new Date(Date.parse(since) + 86_400_000).toISOString() : null;
}

/** True when some coin has credits today that no reward row shows yet. */
export function hasAccrued(summary: RevenueSummary | undefined): boolean {
  return summary?.coins.some((c) => c.accrued !== '0') ?? false;
}

export function MoneySummary() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const summary = useRevenueSummary(user !== null);
  if (summary.isError)
    return <ErrorBanner message={t('revenue.money.loadError')} onRetry={() => void summary.refetch()} />;
  if (!summary.data) return null;
  return (
    <section className="money-summary" aria-label={t('revenue.money.summaryLabel')}>
      {shownCoins(summary.data, user?.preferredCoin).map((c) => (
        <StatCard
          key={c.coin}
          label={t('dashboard.cards.unpaidBalance', { coin: c.coin })}
          value={
            <Private kind="balance">
              <Ltr mono={false}>{formatCoin(c.balance, c.coin)}</Ltr>
            </Private>
          }
          footer={<UnsettledFigures unsettled={c} coin={c.coin} />}
        />
      ))}
    </section>
  );
}

/** The Rewards tab's empty text: says where today's credits are while the day is not settled. */
export function useRewardsEmptyText(filtered: boolean): string {
  const { t } = useTranslation();
  const { user } = useAuth();
  const summary = useRevenueSummary(user !== null);
  if (filtered) return t('revenue.emptyFiltered');
  const close = summary.data ? nextClose(summary.data) : null;
  if (summary.data && hasAccrued(summary.data) && close)
    return t('revenue.money.emptyRewardsAccrued', { time: formatDateTime(close) });
  return t('revenue.emptyRewards');
}
