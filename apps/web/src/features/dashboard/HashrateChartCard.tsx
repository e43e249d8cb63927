// Hashrate Summary: 24 hourly points from GET /api/hashrate?window=24h&step=1h&coin=, one algorithm
// at a time (tabs when the user mines more than one), never summed across algorithms.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { poolCoinOr } from '@manjam/contract';
import { ErrorBanner, Spinner, Tabs } from '../../components';
import type { AlgorithmHashrate, Coin } from '../api-types';
import { HashrateChart } from '../hashrate/HashrateChart';
import { useHashrate24h } from './api';
import { algorithmForCoin } from '../hashrate/hashrateScale';

type PoolCoin = AlgorithmHashrate['coin'];

export function HashrateChartCard({
  hashrates,
  coin: preferred,
}: {
  hashrates: readonly AlgorithmHashrate[];
  coin: Coin;
}) {
  const { t } = useTranslation();
  const fallback: PoolCoin =
    hashrates.find((h) => h.coin === preferred)?.coin ?? hashrates[0]?.coin ?? poolCoinOr(preferred);
  const [picked, setPicked] = useState<PoolCoin | null>(null);
  const coin = picked && hashrates.some((h) => h.coin === picked) ? picked : fallback;
  const hashrate = useHashrate24h(coin);
  const algorithm = algorithmForCoin(coin);

  return (
    <section className="card stack" aria-labelledby="hashrate-summary-title">
      <div className="section-head">
        <h2 id="hashrate-summary-title">{t('dashboard.chart.title')}</h2>
        <Link className="section-link" to="/stats">
          {t('dashboard.chart.viewStats')}
        </Link>
      </div>
      {hashrates.length > 1 ? (
        <Tabs
          tabs={hashrates.map((h) => ({ id: h.coin, label: t(`miners.algorithms.${h.algorithm}`) }))}
          value={coin}
          onChange={setPicked}
          label={t('dashboard.chart.algorithm')}
        />
      ) : null}
      {hashrate.isPending ? <Spinner label={t('dashboard.chart.loading')} /> : null}
      {hashrate.isError ? (
        <ErrorBanner message={t('dashboard.chart.error')} onRetry={() => void hashrate.refetch()} />
      ) : null}
      {hashrate.data ? (
        <HashrateChart
          points={hashrate.data.points}
          algorithm={algorithm}
          empty={t('dashboard.chart.empty')}
        />
      ) : null}
    </section>
  );
}
