import type { Language } from '@manjam/contract';

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

/** A duration in words: "12 minutes" / "12 دقيقة". */
export function formatDuration(ms: number, language: Language): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 1) return language === 'ar' ? 'أقل من دقيقة' : 'less than a minute';
  if (minutes < 120) return language === 'ar' ? `${minutes} دقيقة` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return language === 'ar' ? `${hours} ساعة` : `${hours} hours`;
  const days = Math.round(hours / 24);
  return language === 'ar' ? `${days} يوم` : `${days} days`;
}
