import {
  estimateDailyCoins,
  hashesPerSecondOf,
  HASHRATE_UNITS as UNITS,
  hashesPerDifficulty,
  NODE_DIFFICULTY_HASHES,
  type HashrateUnit as AnyHashrateUnit,
  type PoolCoin,
} from '@manjam/contract';
import { CALCULATOR_COINS, type CalcCoin, type CalculatorCoin } from '../../coins/registry';
import { normalizeNumber } from '../../lib/numbers';

/** Hashrate units the calculator accepts (the contract's, H/s to EH/s), as multipliers of H/s. */
export const HASHRATE_UNITS = Object.fromEntries(UNITS.map((unit, i) => [unit, 1000 ** i])) as Record<
  HashrateUnit,
  number
>;
export type HashrateUnit = AnyHashrateUnit;

/** The coins the calculator estimates: the pool's coins and listed coins on their hardware (coins/). */
export type { CalcCoin };

/** A coin of the calculator (its family's web module), or undefined for a coin it does not estimate. */
export function calculatorCoin(coin: string): CalculatorCoin | undefined {
  return CALCULATOR_COINS.find((row) => row.coin === coin);
}

/**
 * Expected hashes per unit of the difficulty a coin's node and explorers report (its family's web
 * module): Bitcoin Core's unit when the calculator does not know the coin.
 */
export function nodeDifficultyHashes(coin: CalcCoin): number {
  return calculatorCoin(coin)?.nodeDifficultyHashes ?? NODE_DIFFICULTY_HASHES;
}

/**
 * The pool's live network difficulty (its Stratum unit: 65536 times Litecoin Core's number for
 * Scrypt) in the unit nodes and explorers report, which the calculator takes.
 */
export function nodeDifficulty(poolDifficulty: number, coin: PoolCoin): number {
  return (poolDifficulty * hashesPerDifficulty(coin)) / nodeDifficultyHashes(coin);
}

export interface CalculatorInput {
  hashrate: number;
  unit: HashrateUnit;
  /** Network difficulty in the unit the coin's node reports (see nodeDifficultyHashes). */
  difficulty: number;
  /** Expected hashes per unit of that difficulty (nodeDifficultyHashes); Bitcoin Core's unit when left out. */
  hashesPerDifficulty?: number;
  /** Coins per block (subsidy). */
  blockReward: number;
  /** Pool fee in percent, e.g. 1.0 */
  feePercent: number;
  /** Price per coin in the user's currency; 0 when unknown. */
  price: number;
}

export interface Earnings {
  coins: number;
  value: number;
}
export interface CalculatorResult {
  daily: Earnings;
  weekly: Earnings;
  monthly: Earnings;
}

/**
 * Expected (average) earnings per day, week and month (contract estimateDailyCoins: the formula the
 * assistant uses too) and their value at `price`. Null when an input makes the estimate meaningless.
 */
export function estimateEarnings(input: CalculatorInput): CalculatorResult | null {
  const { hashrate, unit, difficulty, blockReward, feePercent, price } = input;
  if (!(Number.isFinite(price) && price >= 0)) return null;
  const dailyCoins = estimateDailyCoins({
    hashesPerSecond: hashesPerSecondOf(hashrate, unit),
    difficulty,
    hashesPerDifficulty: input.hashesPerDifficulty ?? NODE_DIFFICULTY_HASHES,
    blockReward,
    feePercent,
  });
  if (dailyCoins === null) return null;
  const period = (days: number): Earnings => ({ coins: dailyCoins * days, value: dailyCoins * days * price });
  return { daily: period(1), weekly: period(7), monthly: period(30) };
}

/** Parses a number typed by a person: Arabic-Indic and Persian digits, Arabic decimal separator, thousands separators. */
export function parseDecimalInput(text: string): number {
  // Digits and the decimal separator as lib/numbers reads them; thousands separators dropped.
  const normalised = normalizeNumber(text).replace(/[,\u066c\s]/g, '');
  if (!/^\d*\.?\d+$|^\d+\.$/.test(normalised)) return Number.NaN;
  return Number(normalised);
}
