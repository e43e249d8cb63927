import type { Language } from '@manjam/contract';
import { text } from '../../i18n/index.js';

const HASH_UNITS = ['H/s', 'kH/s', 'MH/s', 'GH/s', 'TH/s', 'PH/s', 'EH/s'] as const;

const SUB_UNIT = new Intl.NumberFormat('en', { maximumSignificantDigits: 2 });

/** Adaptive hashrate: 1234567 -> "1.23 MH/s", 0.437 -> "0.44 H/s". */
export function formatHashrate(hashesPerSecond: number): string {
  if (!Number.isFinite(hashesPerSecond) || hashesPerSecond <= 0) return '0 H/s';
  let value = hashesPerSecond;
  let unit = 0;
  while (value >= 1000 && unit < HASH_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  // Under 1 H/s, two significant digits: a rate that is mining never reads "0 H/s".
  const digits = value < 1 ? SUB_UNIT.format(value) : value.toFixed(unit === 0 ? 0 : 2);
  return `${digits} ${HASH_UNITS[unit]}`;
}

/** The zone the pool writes a miner's times in: their choice, else their browser's, else UTC. */
export function userTimeZone(settings: { timeZone: string | null; browserTimeZone: string | null }): string {
  return settings.timeZone ?? settings.browserTimeZone ?? 'UTC';
}

const zoned = new Map<string, Intl.DateTimeFormat>();

/** "2026-11-22 09:00:05": the wall-clock time in `timeZone`, the same digits in both languages. */
export function zonedTime(date: Date, timeZone: string, seconds = false): string {
  const key = `${timeZone}|${seconds}`;
  let format = zoned.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' as const } : {}),
      hourCycle: 'h23',
    });
    zoned.set(key, format);
  }
  const parts = format.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const time = `${part('hour')}:${part('minute')}${seconds ? `:${part('second')}` : ''}`;
  return `${part('year')}-${part('month')}-${part('day')} ${time}`;
}

/** "UTC", or the zone's offset at `date` ("GMT+3"): short, and the same in both languages. */
export function zoneLabel(timeZone: string, date: Date): string {
  if (timeZone === 'UTC') return 'UTC';
  const name = new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'shortOffset' })
    .formatToParts(date)
    .find((p) => p.type === 'timeZoneName')?.value;
  return name ?? timeZone;
}

/** "2026-11-22 06:00 UTC", "2026-11-22 09:00 GMT+3": reads left to right in both languages. */
export function formatTime(date: Date, timeZone = 'UTC'): string {
  return `${zonedTime(date, timeZone)} ${zoneLabel(timeZone, date)}`;
}

/** A duration in words, with the language's plural rules: "12 minutes" / "12 دقيقة", "3 دقائق". */
export function formatDuration(ms: number, language: Language): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 1) return text(language, 'duration.lessThanMinute');
  if (minutes < 120) return text(language, 'duration.minutes', { count: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return text(language, 'duration.hours', { count: hours });
  return text(language, 'duration.days', { count: Math.round(hours / 24) });
}

/** "every 24 h" / "كل 24 ساعة". */
export function formatEvery(hours: number, language: Language): string {
  return text(language, 'payout.every', { count: hours });
}
