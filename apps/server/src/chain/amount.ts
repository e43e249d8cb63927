// Exact conversion between integer base units (bigint) and the decimal coin amounts nodes speak.
import type { Coin } from '@manjam/protocol';

export const COIN_DECIMALS: Record<Coin, number> = { BTC: 8, LTC: 8 };

export class AmountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AmountError';
  }
}

/** 123456789n, 8 -> "1.23456789"; never through a float. */
export function baseUnitsToDecimal(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(decimals, '0');
  const text = decimals > 0 ? `${whole}.${fraction}` : `${whole}`;
  return negative ? `-${text}` : text;
}

/** "1.23456789" -> 123456789n; rejects more decimals than the coin has and anything not a plain decimal. */
export function decimalToBaseUnits(text: string, decimals: number): bigint {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new AmountError(`not a decimal amount: "${text}"`);
  const [, sign, whole = '0', fraction = ''] = match;
  if (fraction.length > decimals) {
    if (!/^0*$/.test(fraction.slice(decimals))) {
      throw new AmountError(`amount ${text} has more than ${decimals} decimals`);
    }
  }
  const units = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.slice(0, decimals).padEnd(decimals, '0') || '0');
  return sign ? -units : units;
}

/**
 * Largest magnitude (in coins) at which a JSON double still identifies a unique 8-decimal amount:
 * below 2^52 * 1e-8 the spacing between doubles is under half a base unit.
 */
const EXACT_FLOAT_LIMIT = 2 ** 52 / 1e8;

/**
 * A node's JSON amount (parsed as a double by JSON.parse, or a string) -> base units, exactly.
 * Rounding the double to `decimals` places recovers the node's decimal text while the amount is
 * below ~45 million coins; above that it refuses rather than guess.
 */
export function nodeAmountToBaseUnits(value: unknown, decimals: number): bigint {
  if (typeof value === 'string') return decimalToBaseUnits(value, decimals);
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new AmountError(`node returned a non-numeric amount: ${JSON.stringify(value)}`);
  }
  if (Math.abs(value) >= EXACT_FLOAT_LIMIT) {
    throw new AmountError(`amount ${value} is too large to convert exactly from a JSON number`);
  }
  return decimalToBaseUnits(value.toFixed(decimals), decimals);
}
