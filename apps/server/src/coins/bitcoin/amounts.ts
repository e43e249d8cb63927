// The Bitcoin family's amounts for its node's RPC (the money rules of @manjam/protocol's money.ts):
// BTC and LTC both have COIN_DECIMALS 8, so these take no coin.
import { baseUnitsToDecimal, COIN_DECIMALS, nodeAmountToBaseUnits, parseCoinAmount } from '@manjam/protocol';
import { RawJsonNumber } from '../../rpc/json-rpc.js';

const DECIMALS = COIN_DECIMALS.BTC;

/** "0.01" -> 1000000n. Throws on anything that is not a plain non-negative decimal with <= 8 decimals. */
export function parseCoins(text: string): bigint {
  return parseCoinAmount(text, DECIMALS);
}

/** 1000000n -> "0.01000000" (always 8 decimals, exact). */
export function formatCoins(units: bigint): string {
  return baseUnitsToDecimal(units, DECIMALS);
}

/** An exact JSON number for an RPC amount argument (never through a float). */
export function rpcAmount(units: bigint): RawJsonNumber {
  if (units <= 0n) throw new RangeError('an amount sent must be positive');
  return new RawJsonNumber(formatCoins(units));
}

/** A node's JSON amount (a double such as 0.1234) -> base units, exactly (protocol's nodeAmountToBaseUnits). */
export function unitsFromRpc(amount: number): bigint {
  return nodeAmountToBaseUnits(amount, DECIMALS);
}
