// The earnings estimate, defined once: the web's profitability calculator and the server's mining
// assistant ("earnings with 100 TH/s") both compute it here. Pure, no I/O.
import { HASHRATE_UNITS, type HashrateUnit } from './networks.js';

const DAY_SECONDS = 86_400;

/** Multiplier of H/s for each hashrate unit: kH/s -> 1e3, TH/s -> 1e12. */
export function hashesPerSecondOf(value: number, unit: HashrateUnit): number {
  return value * 1000 ** HASHRATE_UNITS.indexOf(unit);
}

export interface DailyEstimateInput {
  hashesPerSecond: number;
  /** Network difficulty, in a unit worth `hashesPerDifficulty` expected hashes. */
  difficulty: number;
  hashesPerDifficulty: number;
  /** Coins per block. */
  blockReward: number;
  /** Pool fee in percent, e.g. 1.0. */
  feePercent: number;
}

/**
 * Expected coins a day: the miner's share of the network's expected work per block times the
 * block reward, minus the pool fee. Null when an input makes the estimate meaningless. An estimate
 * shown to people, so floating point is fine here (balances are bigint base units elsewhere).
 */
export function estimateDailyCoins(input: DailyEstimateInput): number | null {
  const { hashesPerSecond, difficulty, hashesPerDifficulty, blockReward, feePercent } = input;
  const valid =
    [hashesPerSecond, difficulty, hashesPerDifficulty].every((n) => Number.isFinite(n) && n > 0) &&
    Number.isFinite(blockReward) &&
    blockReward >= 0 &&
    Number.isFinite(feePercent) &&
    feePercent >= 0 &&
    feePercent <= 100;
  if (!valid) return null;
  const blocksPerDay = (hashesPerSecond * DAY_SECONDS) / (difficulty * hashesPerDifficulty);
  return blocksPerDay * blockReward * (1 - feePercent / 100);
}
