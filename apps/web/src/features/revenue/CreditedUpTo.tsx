// How old the money figures are: "Credited up to 14:05" under a balance or an earnings figure, and
// a plain warning when the pool's accounting has fallen behind (the server judges it: creditsBehind).
import { useTranslation } from 'react-i18next';
import { currentTimeZone, formatDateTime, intlLocale } from '../../lib/format';
import type { Unsettled } from '../api-types';
import './money.css';

/** "14:05" when `at` is today (in the miner's zone), else "Nov 27, 2026, 14:05". */
export function creditedTime(at: string, now: Date = new Date()): string {
  const date = new Date(at);
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: currentTimeZone() });
  const sameDay = day.format(date) === day.format(now);
  return sameDay
    ? new Intl.DateTimeFormat(intlLocale(), {
        timeStyle: 'short',
        hourCycle: 'h23',
        timeZone: currentTimeZone(),
      }).format(date)
    : formatDateTime(date);
}

export function CreditedUpTo({ figures }: { figures: Pick<Unsettled, 'creditedUpTo' | 'creditsBehind'> }) {
  const { t } = useTranslation();
  if (!figures.creditedUpTo) return null;
  const time = creditedTime(figures.creditedUpTo);
  if (figures.creditsBehind)
    return (
      <p className="credited credited--behind" role="status">
        {t('revenue.money.creditsBehind', { time })}
      </p>
    );
  return (
    <p className="credited muted">
      <time dateTime={figures.creditedUpTo}>{t('revenue.money.creditedUpTo', { time })}</time>
    </p>
  );
}
