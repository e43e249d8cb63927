import type { Language } from './matcher.js';

const HASH_UNITS = ['H/s', 'kH/s', 'MH/s', 'GH/s', 'TH/s', 'PH/s', 'EH/s'] as const;
const BASE_UNITS_PER_COIN = 100_000_000n;

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

/** Base units (8 decimals, BTC and LTC) as a decimal string without floats: 123450000n -> "1.2345". */
export function formatAmount(baseUnits: bigint, coin: string): string {
  const negative = baseUnits < 0n;
  const abs = negative ? -baseUnits : baseUnits;
  const whole = abs / BASE_UNITS_PER_COIN;
  const fraction = (abs % BASE_UNITS_PER_COIN).toString().padStart(8, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''} ${coin}`;
}

/** A decimal coin amount (e.g. a payout threshold '0.01') in base units, exactly. */
export function coinsToBaseUnits(decimal: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,8}))?$/.exec(decimal.trim());
  if (!match) throw new RangeError(`not a coin amount: ${decimal}`);
  const whole = BigInt(match[1] ?? '0');
  const fraction = BigInt((match[2] ?? '').padEnd(8, '0'));
  return whole * BASE_UNITS_PER_COIN + fraction;
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
