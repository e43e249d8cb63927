// One hashrate series as a bar chart: one algorithm, values in one adaptive unit, the time axis
// named with the browser's time zone. Used by the dashboard card and the worker detail page.
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, Spinner, useFigureVisibility } from '../../components';
import { currentTimeZone, intlLocale, timeZoneLabel } from '../../lib/format';
import type { Language } from '../../lib/api-types';
import type { Algorithm, HashratePoint } from '../api-types';
import { pickHashrateScale, scaleHashrate } from './hashrateScale';

const HashrateBarChart = lazy(() => import('../dashboard/HashrateBarChart'));

export interface ChartSeries {
  labels: string[];
  values: number[];
  unit: string;
  average: string;
  peak: string;
}

/** Hour labels in the UI language (browser time zone) and values in one adaptive unit for the whole series. */
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
    timeZone: currentTimeZone(),
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

export interface HashrateChartProps {
  points: readonly HashratePoint[];
  algorithm: Algorithm;
  /** Shown when every point is zero. */
  empty: string;
}

export function HashrateChart({ points, algorithm, empty }: HashrateChartProps) {
  const { t, i18n } = useTranslation();
  const lang: Language = i18n.language === 'ar' ? 'ar' : 'en';
  const series = useMemo(() => toChartSeries(points, algorithm, lang), [points, algorithm, lang]);
  const shown = useFigureVisibility().hashrate;
  const zone = timeZoneLabel(lang);
  if (!series.values.some((v) => v > 0)) return <EmptyState title={empty} />;
  if (!shown) return <EmptyState title={t('common.hashrateHidden')} />;
  return (
    <Suspense fallback={<Spinner label={t('dashboard.chart.loading')} />}>
      <HashrateBarChart
        labels={series.labels}
        values={series.values}
        legend={t('dashboard.chart.legend', {
          algorithm: t(`miners.algorithms.${algorithm}`),
          unit: series.unit,
        })}
        timeAxis={t('dashboard.hashrates.timeAxis', { zone })}
        summary={t('dashboard.chart.summary', { average: series.average, peak: series.peak, zone })}
      />
    </Suspense>
  );
}
