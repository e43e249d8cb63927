// One unit for a whole hashrate series (chart axis, totals): adaptive H/s ... EH/s, with the unit
// the algorithm's miners count in when the series is empty (the coin table's: TH/s SHA-256, GH/s
// Scrypt and kHeavyHash, kH/s RandomX; H/s for an algorithm the pool does not mine).
import { HASHRATE_UNITS, hashrateUnitOf, isPoolCoin, PORT_TABLE, type HashrateUnit } from '@manjam/contract';
import type { Algorithm, Coin } from '../api-types';

export interface HashrateScale {
  unit: HashrateUnit;
  divisor: number;
}

/** The unit the miners of a live algorithm count in (its coin's, protocol's coin table); H/s otherwise. */
function customaryUnit(algorithm: Algorithm): HashrateUnit {
  const coin = PORT_TABLE.find((row) => row.account === algorithm && isPoolCoin(row.coin))?.coin;
  return coin !== undefined && isPoolCoin(coin) ? hashrateUnitOf(coin) : 'H/s';
}

function scaleOf(unit: HashrateUnit): HashrateScale {
  return { unit, divisor: 1000 ** HASHRATE_UNITS.indexOf(unit) };
}

/** Largest unit in which the biggest value is at least 1 (H/s for an all-zero series). */
export function pickHashrateScale(values: readonly number[], algorithm?: Algorithm): HashrateScale {
  const max = values.reduce((m, v) => (Number.isFinite(v) && v > m ? v : m), 0);
  if (max <= 0) return scaleOf(algorithm ? customaryUnit(algorithm) : 'H/s');
  const index = Math.min(Math.floor(Math.log10(max) / 3), HASHRATE_UNITS.length - 1);
  return scaleOf(HASHRATE_UNITS[Math.max(index, 0)] ?? 'H/s');
}

/** Value in the scale's unit, rounded to `digits` decimals. */
export function scaleHashrate(value: number, scale: HashrateScale, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round((value / scale.divisor) * factor) / factor;
}

/** "12.3 TH/s" with the unit fitting this one value; `digits` decimals (default 1). */
export function formatHashrateAdaptive(value: number, locale: string, digits = 1): string {
  const scale = pickHashrateScale([value]);
  const number = new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value / scale.divisor);
  return `${number} ${scale.unit}`;
}

/** The algorithm a coin is mined with: its port table row's (the Scrypt-DOGE port mines Scrypt). */
export function algorithmForCoin(coin: Coin): Algorithm {
  const row = PORT_TABLE.find((entry) => entry.coin === coin);
  if (!row?.feeAlgorithm) throw new RangeError(`no port table row mines ${coin}`);
  return row.feeAlgorithm;
}
