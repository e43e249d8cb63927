// Hashrate Summary: 24 hourly points from GET /api/hashrate?window=24h&step=1h.
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState, ErrorBanner, Spinner, useFigureVisibility } from '../../components';
import { intlLocale } from '../../lib/format';
import type { Language } from '../../lib/api-types';
import type { Algorithm, HashratePoint } from '../api-types';
import { useHashrate24h } from './api';
import { pickHashrateScale, scaleHashrate } from './hashrateScale';

const HashrateBarChart = lazy(() => import('./HashrateBarChart'));

export interface ChartSeries {
  labels: string[];
  values: number[];
  unit: string;
  average: string;
  peak: string;
}

/** Hour labels in the UI language and values in one adaptive unit for the whole series. */
export function toChartSeries(
  points: readonly HashratePoint[],
  algorithm: Algorithm | undefined,
  lang: Language,
): ChartSeries {
  const raw = points.map((p) => p.value);
  const scale = pickHashrateScale(raw, algorithm);
  const hour = new Intl.DateTimeFormat(intlLocale(lang), {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const number = new Intl.NumberFormat(intlLocale(lang), { maximumFractionDigits: 2 });
  const sum = raw.reduce((a, b) => a + b, 0);
  const average = raw.length ? sum / raw.length : 0;
  const peak = raw.reduce((a, b) => Math.max(a, b), 0);
  return {
    labels: points.map((p) => hour.format(new Date(p.time))),
    values: raw.map((v) => scaleHashrate(v, scale)),
    unit: scale.unit,
    average: `${number.format(scaleHashrate(average, scale))} ${scale.unit}`,
    peak: `${number.format(scaleHashrate(peak, scale))} ${scale.unit}`,
  };
}

export function HashrateChartCard({ algorithm }: { algorithm?: Algorithm }) {
  const { t, i18n } = useTranslation();
  const hashrate = useHashrate24h(true);
  const lang: Language = i18n.language === 'ar' ? 'ar' : 'en';
  const series = useMemo(
    () => (hashrate.data ? toChartSeries(hashrate.data.points, algorithm, lang) : null),
    [hashrate.data, algorithm, lang],
  );
  const hasData = series !== null && series.values.some((v) => v > 0);
  const shown = useFigureVisibility().hashrate;

  return (
    <section className="card stack" aria-labelledby="hashrate-summary-title">
      <div className="section-head">
        <h2 id="hashrate-summary-title">{t('dashboard.chart.title')}</h2>
        <Link className="section-link" to="/stats">
          {t('dashboard.chart.viewStats')}
        </Link>
      </div>
      {hashrate.isPending ? <Spinner label={t('dashboard.chart.loading')} /> : null}
      {hashrate.isError ? (
        <ErrorBanner message={t('dashboard.chart.error')} onRetry={() => void hashrate.refetch()} />
      ) : null}
      {series && !hasData ? <EmptyState title={t('dashboard.chart.empty')} /> : null}
      {series && hasData && !shown ? <EmptyState title={t('common.hashrateHidden')} /> : null}
      {series && hasData && shown ? (
        <Suspense fallback={<Spinner label={t('dashboard.chart.loading')} />}>
          <HashrateBarChart
            labels={series.labels}
            values={series.values}
            legend={t('dashboard.chart.legend', { unit: series.unit })}
            summary={t('dashboard.chart.summary', { average: series.average, peak: series.peak })}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
