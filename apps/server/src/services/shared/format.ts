import type { Language } from '@manjam/contract';
import { text } from '../../i18n/index.js';

const HASH_UNITS = ['H/s', 'kH/s', 'MH/s', 'GH/s', 'TH/s', 'PH/s', 'EH/s'] as const;

/** Adaptive hashrate: 1234567 -> "1.23 MH/s". */
export function formatHashrate(hashesPerSecond: number): string {
  if (!Number.isFinite(hashesPerSecond) || hashesPerSecond <= 0) return '0 H/s';
  let value = hashesPerSecond;
  let unit = 0;
  while (value >= 1000 && unit < HASH_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 2)} ${HASH_UNITS[unit]}`;
}

/** "2026-11-22 06:00 UTC" — the same in both languages, so it reads left to right everywhere. */
export function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
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
