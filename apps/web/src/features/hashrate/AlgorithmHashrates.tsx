// A user's hashrate per algorithm, never summed across algorithms: real-time (10 min) and 24 h side
// by side, each labelled (1 h too where there is room). The dashboard, sidebar and workers page
// all render the server's one computation (services/shared/hashrate.ts) through this component; each
// algorithm says how old its figures are (not in the narrow sidebar). An average over less than its
// window (the workers began mining within it) says so: "over the last 2 min".
import { useTranslation } from 'react-i18next';
import { Ltr, Private } from '../../components';
import { formatHashrate, formatNumber } from '../../lib/format';
import type { AlgorithmHashrate } from '../api-types';
import { AlgorithmSharesAge } from './SharesAge';
import './hashrate.css';

/** Each window's length in seconds (the server's averagedSeconds are at most these). */
export const WINDOW_SECONDS = { realtime: 600, hour: 3_600, day: 86_400 } as const;

/** "over the last 2 min" when an average covers less than its window, else nothing. */
export function OverLast({
  seconds,
  window,
}: {
  seconds: number | undefined;
  window: keyof typeof WINDOW_SECONDS;
}) {
  const { t } = useTranslation();
  if (seconds === undefined || seconds >= WINDOW_SECONDS[window]) return null;
  const minutes = formatNumber(Math.max(1, Math.round(seconds / 60)));
  return (
    <>
      {' '}
      <span className="algo-hashrates__span muted">{t('dashboard.hashrates.overLast', { minutes })}</span>
    </>
  );
}

export interface AlgorithmHashratesProps {
  hashrates: readonly AlgorithmHashrate[];
  /** Also show the 1 h average. */
  withHour?: boolean;
  /** Smaller type for the sidebar. */
  compact?: boolean;
  /** Shown when the user has no worker yet (default: "No hashrate yet"). */
  empty?: string;
}

export function AlgorithmHashrates({
  hashrates,
  withHour = false,
  compact = false,
  empty,
}: AlgorithmHashratesProps) {
  const { t } = useTranslation();
  if (hashrates.length === 0)
    return <p className="algo-hashrates__none">{empty ?? t('dashboard.hashrates.none')}</p>;
  // The sidebar is narrow: "10 min" / "24 h", with the full label as a tooltip.
  const windows = [
    ['realtime', t('dashboard.hashrates.realtime'), t('dashboard.hashrates.realtimeShort')],
    ...(withHour ? ([['hour', t('dashboard.hashrates.hour'), t('dashboard.hashrates.hour')]] as const) : []),
    ['day', t('dashboard.hashrates.day'), t('dashboard.hashrates.dayShort')],
  ] as const;
  return (
    <div className={`algo-hashrates${compact ? ' algo-hashrates--compact' : ''}`}>
      {hashrates.map((figures) => (
        <section
          key={figures.algorithm}
          className="algo-hashrates__algo"
          aria-label={t(`miners.algorithms.${figures.algorithm}`)}
        >
          <h3 className="algo-hashrates__name">{t(`miners.algorithms.${figures.algorithm}`)}</h3>
          <dl className="algo-hashrates__figures">
            {windows.map(([key, label, short]) => (
              <div key={key}>
                <dt title={compact ? label : undefined}>{compact ? short : label}</dt>
                <dd>
                  <Private kind="hashrate">
                    <Ltr mono={false} className="tabular">
                      {formatHashrate(figures[key])}
                    </Ltr>
                  </Private>
                  <OverLast seconds={figures.averagedSeconds?.[key]} window={key} />
                </dd>
              </div>
            ))}
          </dl>
          {compact ? null : <AlgorithmSharesAge figures={figures} />}
        </section>
      ))}
    </div>
  );
}
