// Money, once: coin amounts are integer base units (bigint), converted to and from decimal text
// exactly, never through a float. Every server module, the contract and the web use these.
// Imports only the coin table (which imports nothing), so the contract (and with it the web) can
// take it as '@manjam/protocol/money'.
import { COIN_TABLE, LISTED_COIN_TABLE, type Coin, type ListedCoin } from './coin-table.js';

export type MoneyCoin = Coin | ListedCoin;

/** Base-unit decimals of every coin the pool lists, from the coin table (mined and listed coins). */
export const COIN_DECIMALS = Object.fromEntries(
  Object.entries({ ...COIN_TABLE, ...LISTED_COIN_TABLE }).map(([coin, row]) => [coin, row.decimals]),
) as Record<MoneyCoin, number>;

/** Decimals used for a coin the table does not list (every mined coin is listed). */
const DEFAULT_DECIMALS = 8;

/** The coin's base-unit decimals (8 for a coin not in the table). */
export function decimalsOf(coin: string): number {
  return Object.hasOwn(COIN_DECIMALS, coin) ? COIN_DECIMALS[coin as MoneyCoin] : DEFAULT_DECIMALS;
}

export class AmountError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'AmountError';
  }
}

/**
 * Base units as decimal text, exact: trailing fraction zeros are dropped down to
 * `minFractionDigits` (default: all `decimals` kept). (123450000n, 8) -> "1.23450000";
 * (123450000n, 8, 0) -> "1.2345"; (100000000n, 8, 0) -> "1".
 */
export function baseUnitsToDecimal(units: bigint, decimals: number, minFractionDigits = decimals): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  let fraction = decimals > 0 ? (abs % scale).toString().padStart(decimals, '0') : '';
  const keep = Math.min(decimals, Math.max(0, minFractionDigits));
  while (fraction.length > keep && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  const text = fraction ? `${whole}.${fraction}` : `${whole}`;
  return negative ? `-${text}` : text;
}

/**
 * Decimal text -> base units, exact. Accepts a sign; more decimals than the coin has only when
 * the extra ones are zeros (nodes print "0.10000000000"). Throws AmountError otherwise.
 */
export function decimalToBaseUnits(text: string, decimals: number): bigint {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new AmountError(`not a decimal amount: "${text}"`);
  const [, sign, whole = '0', fraction = ''] = match;
  if (fraction.length > decimals && !/^0*$/.test(fraction.slice(decimals))) {
    throw new AmountError(`amount ${text} has more than ${decimals} decimals`);
  }
  const units =
    BigInt(whole) * 10n ** BigInt(decimals) +
    BigInt(fraction.slice(0, decimals).padEnd(decimals, '0') || '0');
  return sign ? -units : units;
}

/**
 * An amount a person typed or configured ("0.01"): a plain non-negative decimal with at most the
 * coin's decimals, in base units. Throws AmountError on anything else.
 */
export function parseCoinAmount(text: string, decimals: number = DEFAULT_DECIMALS): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match || (match[2] ?? '').length > decimals) {
    throw new AmountError(`not a coin amount with at most ${decimals} decimals: "${text}"`);
  }
  return decimalToBaseUnits(text, decimals);
}

/** "1.2345 BTC": base units of `coin` with trailing zeros dropped and the coin's symbol. */
export function formatCoinAmount(units: bigint, coin: string): string {
  return `${baseUnitsToDecimal(units, decimalsOf(coin), 0)} ${coin}`;
}

/**
 * Largest magnitude (in coins) at which a JSON double still identifies a unique amount of
 * `decimals` places: below 2^52 / 10^decimals the spacing between doubles is under half a base
 * unit (about 45 million coins at 8 decimals).
 */
export function exactFloatLimit(decimals: number): number {
  return 2 ** 52 / 10 ** decimals;
}

/**
 * A node's JSON amount (a double from JSON.parse, or a string) -> base units, exactly. Rounding
 * the double to `decimals` places recovers the node's decimal text below exactFloatLimit; above
 * it, it refuses rather than guess.
 */
export function nodeAmountToBaseUnits(value: unknown, decimals: number): bigint {
  if (typeof value === 'string') return decimalToBaseUnits(value, decimals);
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new AmountError(`node returned a non-numeric amount: ${JSON.stringify(value)}`);
  }
  if (Math.abs(value) >= exactFloatLimit(decimals)) {
    throw new AmountError(`amount ${value} is too large to convert exactly from a JSON number`);
  }
  return decimalToBaseUnits(value.toFixed(decimals), decimals);
}
