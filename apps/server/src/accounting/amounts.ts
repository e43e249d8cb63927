// Coin amounts as text <-> integer base units (BTC and LTC both have 8 decimals).
import { RawJsonNumber } from '../chain/rpc.js';

export const COIN_DECIMALS = 8;
export const BASE_UNITS_PER_COIN = 100_000_000n;

/** "0.01" -> 1000000n. Throws on anything that is not a plain non-negative decimal with <= 8 decimals. */
export function parseCoins(text: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,8}))?$/.exec(text.trim());
  if (!match) throw new RangeError(`not a coin amount with at most ${COIN_DECIMALS} decimals: "${text}"`);
  const whole = BigInt(match[1] ?? '0');
  const fraction = BigInt((match[2] ?? '').padEnd(COIN_DECIMALS, '0'));
  return whole * BASE_UNITS_PER_COIN + fraction;
}

/** 1000000n -> "0.01000000" (always 8 decimals, exact). */
export function formatCoins(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / BASE_UNITS_PER_COIN;
  const fraction = (abs % BASE_UNITS_PER_COIN).toString().padStart(COIN_DECIMALS, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** An exact JSON number for an RPC amount argument (never through a float). */
export function rpcAmount(units: bigint): RawJsonNumber {
  if (units <= 0n) throw new RangeError('an amount sent must be positive');
  return new RawJsonNumber(formatCoins(units));
}

/**
 * A node's JSON amount (a double such as 0.1234) -> base units. Doubles carry ~15.9 significant
 * digits, so rounding amount * 1e8 is exact for every amount below 90 million coins.
 */
export function unitsFromRpc(amount: number): bigint {
  if (!Number.isFinite(amount)) throw new RangeError(`invalid amount from node: ${amount}`);
  if (Math.abs(amount) >= 90_000_000) throw new RangeError(`amount out of range: ${amount}`);
  return BigInt(Math.round(amount * 1e8));
}
