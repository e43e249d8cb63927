import { describe, expect, it } from 'vitest';
import { estimateEarnings, nodeDifficulty, nodeDifficultyHashes, parseDecimalInput } from './calculator';

describe('estimateEarnings', () => {
  it('gives one block per day to a miner with the whole network hashrate', () => {
    // difficulty d needs d * 2^32 hashes per block; that many hashes per day = 1 block/day.
    const difficulty = 1e6;
    const hashesPerSecond = (difficulty * 2 ** 32) / 86_400;
    const result = estimateEarnings({
      hashrate: hashesPerSecond,
      unit: 'H/s',
      difficulty,
      blockReward: 3.125,
      feePercent: 0,
      price: 0,
    });
    expect(result?.daily.coins).toBeCloseTo(3.125, 10);
    expect(result?.weekly.coins).toBeCloseTo(3.125 * 7, 9);
    expect(result?.monthly.coins).toBeCloseTo(3.125 * 30, 9);
  });

  it('takes the pool fee and prices the coins', () => {
    const difficulty = 1e6;
    const hashesPerSecond = (difficulty * 2 ** 32) / 86_400;
    const result = estimateEarnings({
      hashrate: hashesPerSecond / 1e12,
      unit: 'TH/s',
      difficulty,
      blockReward: 10,
      feePercent: 1,
      price: 2,
    });
    expect(result?.daily.coins).toBeCloseTo(9.9, 10);
    expect(result?.daily.value).toBeCloseTo(19.8, 10);
  });

  it('matches a worked Bitcoin example: 100 TH/s at difficulty 100 T earns about 0.00006 BTC a day after a 1% fee', () => {
    const result = estimateEarnings({
      hashrate: 100,
      unit: 'TH/s',
      difficulty: 100e12,
      blockReward: 3.125,
      feePercent: 1,
      price: 0,
    });
    // 100e12 * 86400 / (100e12 * 2^32) * 3.125 * 0.99 = 86400 / 4294967296 * 3.09375 = 6.2236e-5
    expect(result?.daily.coins).toBeCloseTo(6.2236e-5, 8);
  });

  it('returns no estimate for zero, negative or missing inputs', () => {
    const base = {
      hashrate: 1,
      unit: 'TH/s' as const,
      difficulty: 1e12,
      blockReward: 3.125,
      feePercent: 1,
      price: 0,
    };
    expect(estimateEarnings({ ...base, hashrate: 0 })).toBeNull();
    expect(estimateEarnings({ ...base, difficulty: Number.NaN })).toBeNull();
    expect(estimateEarnings({ ...base, feePercent: 120 })).toBeNull();
    expect(estimateEarnings({ ...base, price: -1 })).toBeNull();
  });
});

describe('parseDecimalInput', () => {
  it('reads Latin and Arabic-Indic digits and separators', () => {
    expect(parseDecimalInput('1,234.5')).toBe(1234.5);
    expect(parseDecimalInput('١٢٣٫٥')).toBe(123.5);
    expect(parseDecimalInput(' 42 ')).toBe(42);
  });

  it('rejects text that is not a number', () => {
    expect(parseDecimalInput('12abc')).toBeNaN();
    expect(parseDecimalInput('')).toBeNaN();
    expect(parseDecimalInput('-5')).toBeNaN();
  });
});

describe('the calculator for Monero (RandomX)', () => {
  it("takes Monero's difficulty as hashes per block: difficulty d mined at d hashes a day is one block a day", () => {
    const difficulty = 300e9;
    const result = estimateEarnings({
      hashrate: difficulty / 86_400 / 1e3,
      unit: 'kH/s',
      difficulty,
      hashesPerDifficulty: nodeDifficultyHashes('XMR'),
      blockReward: 0.6,
      feePercent: 0,
      price: 0,
    });
    expect(result?.daily.coins).toBeCloseTo(0.6, 9);
  });

  it("shows the pool's live Monero difficulty as it is (one hash per unit) and Litecoin's in Litecoin Core's unit", () => {
    expect(nodeDifficultyHashes('XMR')).toBe(1);
    expect(nodeDifficulty(123_456, 'XMR')).toBe(123_456);
    expect(nodeDifficulty(65_536, 'LTC')).toBe(1);
  });
});
