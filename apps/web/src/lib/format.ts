import {
  baseUnitsToDecimal as unitsToDecimal,
  COIN_DECIMALS,
  decimalsOf,
  HASHRATE_UNITS,
} from '@manjam/contract';
import type { Language } from './api-types';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

export function currentLanguage(): Language {
  return readStorage(STORAGE_KEYS.language) === 'ar' ? 'ar' : 'en';
}

/**
 * The zone the miner chose in Settings (null: none, the browser's own). Kept in storage like the
 * language, so a page load draws its first times in it before the settings have loaded.
 */
let chosenTimeZone: string | null = readStorage(STORAGE_KEYS.timeZone);

/** Every time on screen is shown in this zone from now on (and on the next page loads); null: the browser's own. */
export function setTimeZone(zone: string | null): void {
  chosenTimeZone = zone;
  writeStorage(STORAGE_KEYS.timeZone, zone);
}

/** The chosen zone, or undefined for the browser's own (what Intl takes for "the default"). */
export function currentTimeZone(): string | undefined {
  return chosenTimeZone ?? undefined;
}

/** The browser's own IANA zone ("Asia/Riyadh"). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Intl locale for a UI language. Arabic keeps Latin digits: figures sit beside hashes, ports and addresses. */
export function intlLocale(lang: Language = currentLanguage()): string {
  return lang === 'ar' ? 'ar-u-nu-latn' : 'en';
}

/** 1234567 -> "1.23 MH/s", 0.437 -> "0.44 H/s". Picks the largest unit that keeps the value at or above 1. */
export function formatHashrate(hashesPerSecond: number, lang: Language = currentLanguage()): string {
  if (!Number.isFinite(hashesPerSecond) || hashesPerSecond < 0)
    throw new RangeError(`Not a hashrate: ${hashesPerSecond}`);
  let value = hashesPerSecond;
  let unit = 0;
  while (value >= 1000 && unit < HASHRATE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : 2;
  // Under 1 H/s (a slow CPU or a low share difficulty just started), two significant digits: a
  // rate that is mining never reads "0 H/s".
  const text = new Intl.NumberFormat(
    intlLocale(lang),
    value > 0 && value < 1
      ? { maximumSignificantDigits: 2 }
      : { minimumFractionDigits: digits, maximumFractionDigits: digits },
  ).format(value);
  return `${text} ${HASHRATE_UNITS[unit]}`;
}

/** Exact decimal text of an integer amount of base units: ("150000000", 8) -> "1.5". */
export function baseUnitsToDecimal(baseUnits: string, decimals: number, minFractionDigits = 2): string {
  if (!/^-?\d+$/.test(baseUnits.trim()))
    throw new RangeError(`Not an integer amount of base units: "${baseUnits}"`);
  return unitsToDecimal(BigInt(baseUnits.trim()), decimals, minFractionDigits);
}

/** ("123456789", "BTC") -> "1.23456789 BTC", exact (bigint), whole part grouped for the language. */
export function formatCoin(baseUnits: string, coin: string, lang: Language = currentLanguage()): string {
  if (!Object.hasOwn(COIN_DECIMALS, coin)) throw new RangeError(`Unknown coin: "${coin}"`);
  const decimals = decimalsOf(coin);
  const decimal = baseUnitsToDecimal(baseUnits, decimals);
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction] = (negative ? decimal.slice(1) : decimal).split('.');
  const grouped = new Intl.NumberFormat(intlLocale(lang), { useGrouping: true }).format(BigInt(whole));
  return `${negative ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''} ${coin}`;
}

/** Wallet addresses: first 6 + "..." + last 4 when longer than 10 characters. */
export function shortenAddress(address: string): string {
  return address.length > 10 ? `${address.slice(0, 6)}...${address.slice(-4)}` : address;
}

/** Transaction ids: first 6 + "..." + last 6, or the pending label when there is none yet. */
export function shortenTx(txId: string | null | undefined, pendingLabel = 'Pending...'): string {
  if (!txId) return pendingLabel;
  return txId.length > 12 ? `${txId.slice(0, 6)}...${txId.slice(-6)}` : txId;
}

export function formatNumber(
  value: number,
  lang: Language = currentLanguage(),
  options: Intl.NumberFormatOptions = {},
): string {
  return new Intl.NumberFormat(intlLocale(lang), options).format(value);
}

/** Below this a difficulty reads in scientific notation (a regtest's 4.66e-10 would print as "0"). */
const SCIENTIFIC_BELOW = 0.01;

/** A tiny positive number in scientific notation, the same in every language: 4.656e-10 -> "4.66e-10". */
export function formatTiny(value: number): string | null {
  if (!Number.isFinite(value) || value <= 0 || value >= SCIENTIFIC_BELOW) return null;
  const [mantissa = '0', exponent = '0'] = value.toExponential(2).split('e');
  return `${Number(mantissa)}e${exponent}`;
}

/** Difficulty in the seed's compact style: 36762000000000 -> "36.76 T"; tiny ones 4.66e-10. */
export function formatDifficulty(value: number, lang: Language = currentLanguage()): string {
  return (
    formatTiny(value) ??
    new Intl.NumberFormat(intlLocale(lang), { notation: 'compact', maximumFractionDigits: 2 }).format(value)
  );
}

function toDate(value: string | Date): Date {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a date: "${String(value)}"`);
  return date;
}

export function formatDate(value: string | Date, lang: Language = currentLanguage()): string {
  return new Intl.DateTimeFormat(intlLocale(lang), {
    dateStyle: 'medium',
    timeZone: currentTimeZone(),
  }).format(toDate(value));
}

export function formatDateTime(value: string | Date, lang: Language = currentLanguage()): string {
  return new Intl.DateTimeFormat(intlLocale(lang), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: currentTimeZone(),
  }).format(toDate(value));
}

/**
 * How far figures are up to date, in the miner's zone: "14:05" when `at` is today, else
 * "Nov 27, 2026, 14:05" (FiguresAge: money and hashrate figures alike).
 */
export function formatAsOf(at: string | Date, now: Date = new Date()): string {
  const date = toDate(at);
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

/** "5 minutes ago" / "منذ 5 دقائق" via Intl.RelativeTimeFormat. */
export function formatRelative(
  value: string | Date,
  lang: Language = currentLanguage(),
  now: Date = new Date(),
): string {
  const seconds = Math.round((toDate(value).getTime() - now.getTime()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(intlLocale(lang), { numeric: 'auto' });
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [unit, size] of steps) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.round(seconds / size), unit);
  }
  return rtf.format(seconds, 'second');
}

/**
 * The browser's time zone as chart axes name it: "UTC", "GMT+3"… (Arabic: "غرينتش+3"); the IANA
 * name (e.g. "Asia/Riyadh") when Intl gives no short name. `timeZone` is for tests.
 */
export function timeZoneLabel(
  lang: Language = currentLanguage(),
  at: Date = new Date(),
  timeZone?: string,
): string {
  const zone = timeZone ?? currentTimeZone();
  const parts = new Intl.DateTimeFormat(intlLocale(lang), {
    timeZoneName: 'short',
    timeZone: zone,
  }).formatToParts(at);
  const name = parts.find((part) => part.type === 'timeZoneName')?.value;
  return name ?? zone ?? browserTimeZone();
}
