import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBanner, Ltr, Spinner, StatCard } from '../../components';
import type { PayoutSetting } from '../../lib/api-types';
import { algorithmLabel } from '../../lib/algorithms';
import { formatCoin, formatHashrate } from '../../lib/format';
import { OverLast } from '../hashrate/AlgorithmHashrates';
import { FiguresAsOf } from '../hashrate/FigureStates';
import { AlgorithmSharesAge } from '../hashrate/SharesAge';
import { Pager } from '../revenue/Pager';
import { PayoutsTable } from '../revenue/PayoutsTable';
import { UnsettledFigures } from '../revenue/UnsettledFigures';
import { useWatchDashboard, useWatchPayouts } from './watch-api';

/** The link's coins: hashrate per algorithm (10 min, 1 h, 24 h) and each coin's unpaid balance. */
export function WatchDashboardSection({ token }: { token: string }) {
  const { t } = useTranslation();
  const dashboard = useWatchDashboard(token, true);
  return (
    <section className="watch__section" aria-labelledby="watch-dashboard">
      <h2 id="watch-dashboard">{t('monitoring.pages.dashboard')}</h2>
      {dashboard.isPending ? <Spinner /> : null}
      {dashboard.isError ? <ErrorBanner message={t('watch.loadError')} /> : null}
      {dashboard.data ? (
        <div className="watch__grid">
          {dashboard.data.hashrates.map((h) => (
            <StatCard
              key={h.algorithm}
              label={t('watch.hashrate', { algorithm: algorithmLabel(h.algorithm) })}
              value={
                <>
                  <Ltr mono={false}>{formatHashrate(h.realtime)}</Ltr>
                  <OverLast seconds={h.averagedSeconds?.realtime} window="realtime" />
                </>
              }
              footer={
                <>
                  <p className="muted">
                    {t('watch.hourDay', {
                      hour: formatHashrate(h.hour),
                      day: formatHashrate(h.day),
                      workers: h.activeWorkers,
                    })}
                  </p>
                  <AlgorithmSharesAge figures={h} />
                </>
              }
            />
          ))}
          {dashboard.data.coins.map((c) => (
            <StatCard
              key={c.coin}
              label={t('dashboard.cards.unpaidBalance', { coin: c.coin })}
              value={<Ltr mono={false}>{formatCoin(c.balance, c.coin)}</Ltr>}
              footer={<UnsettledFigures unsettled={c} coin={c.coin} />}
            />
          ))}
        </div>
      ) : null}
      {dashboard.data ? <FiguresAsOf asOf={dashboard.data.asOf} /> : null}
    </section>
  );
}

/** One of the link's coins at a time, addresses shortened by the server. */
export function WatchPayoutsSection({
  token,
  coins,
}: {
  token: string;
  coins: readonly PayoutSetting['coin'][];
}) {
  const { t } = useTranslation();
  const [coin, setCoin] = useState(coins[0]);
  const [page, setPage] = useState(1);
  const payouts = useWatchPayouts(token, coin, page, true);
  return (
    <section className="watch__section" aria-labelledby="watch-payouts">
      <h2 id="watch-payouts">{t('monitoring.pages.payouts')}</h2>
      {coins.length > 1 ? (
        <div className="row" role="group" aria-label={t('watch.coin')}>
          {coins.map((c) => (
            <button
              key={c}
              type="button"
              className={c === coin ? 'btn btn--primary' : 'btn btn--ghost'}
              aria-pressed={c === coin}
              onClick={() => {
                setCoin(c);
                setPage(1);
              }}
            >
              {c}
            </button>
          ))}
        </div>
      ) : null}
      {payouts.isPending ? <Spinner /> : null}
      {payouts.isError ? <ErrorBanner message={t('watch.loadError')} /> : null}
      {payouts.data ? (
        <>
          <PayoutsTable rows={payouts.data.items} empty={t('payouts.empty')} />
          <Pager page={page} pageSize={payouts.data.pageSize} total={payouts.data.total} onPage={setPage} />
        </>
      ) : null}
    </section>
  );
}
