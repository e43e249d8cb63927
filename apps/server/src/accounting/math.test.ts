import { describe, expect, it } from 'vitest';
import {
  AMOUNT_ONE,
  creditPps,
  feeOf,
  ppsShareValueFp,
  splitByWeight,
  splitSolo,
  windowWeights,
  windowWork,
  workOf,
} from './math.js';

const noCarry = { payees: new Map<number, bigint>(), pool: 0n };

describe('work and fees', () => {
  it('turns a difficulty into exact fixed-point work, regtest difficulties included', () => {
    expect(workOf(1)).toBe(1n << 128n);
    expect(workOf(0.5)).toBe(1n << 127n);
    expect(workOf(3)).toBe(3n << 128n);
    const regtest = 4.656542373906925e-10;
    expect(workOf(regtest) * 4n).toBe(workOf(regtest * 4));
    expect(ppsShareValueFp(5_000_000_000n, regtest / 4, regtest)).toBe(1_250_000_000n * AMOUNT_ONE);
  });

  it('refuses a negative or non-finite difficulty with a clear error', () => {
    expect(() => workOf(-1)).toThrow('invalid difficulty: -1');
    expect(() => workOf(Number.NaN)).toThrow('invalid difficulty');
  });

  it('takes a 1.0 % fee rounded down, and refuses a fee over 100 %', () => {
    expect(feeOf(12_345n, 100)).toBe(123n);
    expect(feeOf(99n, 100)).toBe(0n);
    expect(() => feeOf(1n, 10_001)).toThrow('invalid fee');
  });
});

describe('PPS', () => {
  it('values a share at S x w/W in 1/2^32 base units, never more than a block', () => {
    expect(ppsShareValueFp(312_500_000n, 1, 4)).toBe(78_125_000n * AMOUNT_ONE);
    expect(ppsShareValueFp(5_000_000_000n, 7, 2)).toBe(5_000_000_000n * AMOUNT_ONE);
  });

  it('credits each payee w/W x S x (1 - f) and the pool the fee', () => {
    const shares = [
      { payeeId: 1, difficulty: 1, networkDifficulty: 1000, subsidy: 5_000_000_000n },
      { payeeId: 2, difficulty: 2, networkDifficulty: 1000, subsidy: 5_000_000_000n },
      { payeeId: 1, difficulty: 1, networkDifficulty: 1000, subsidy: 5_000_000_000n },
      { payeeId: 1, difficulty: 1, networkDifficulty: 1000, subsidy: 5_000_000_000n },
    ];
    const result = creditPps(shares, 100, noCarry);
    expect(result.credits).toEqual(
      new Map([
        [1, 14_850_000n],
        [2, 9_900_000n],
      ]),
    );
    expect(result.fee).toBe(250_000n);
    expect(result.carry.payees).toEqual(
      new Map([
        [1, 0n],
        [2, 0n],
      ]),
    );
  });

  it('carries a small miner’s fractions so that a third of a satoshi per share is paid over time', () => {
    const share = { payeeId: 7, difficulty: 1, networkDifficulty: 3, subsidy: 100n };
    let carry = { payees: new Map<number, bigint>(), pool: 0n };
    const credits: bigint[] = [];
    for (let i = 0; i < 4; i++) {
      const result = creditPps([share], 0, carry);
      credits.push(result.credits.get(7) ?? -1n);
      carry = { payees: result.carry.payees, pool: result.carry.pool };
    }
    // floor(100 * 2^32 / 3) per share: 33.33... satoshis, 1/3 of a fixed-point unit lost per share.
    expect(credits).toEqual([33n, 33n, 33n, 34n]);
    expect(carry.payees.get(7)).toBe(1_431_655_764n);
  });
});

describe('PPLNS window and splits', () => {
  it('counts the last N = 2 x W of work, cutting the oldest share at the window edge', () => {
    const window = windowWork(10, 2);
    expect(window).toBe(workOf(20));
    const newestFirst = [
      { payeeId: 1, difficulty: 8 },
      { payeeId: 2, difficulty: 8 },
      { payeeId: 1, difficulty: 8 },
      { payeeId: 3, difficulty: 8 },
    ];
    const { weights, full } = windowWeights(newestFirst, window);
    expect(full).toBe(true);
    expect(weights).toEqual(
      new Map([
        [1, workOf(12)],
        [2, workOf(8)],
      ]),
    );
  });

  it('splits PPS+ transaction fees by weight, remainder to the pool', () => {
    const split = splitByWeight(
      12_345n,
      100,
      new Map([
        [1, 12n],
        [2, 8n],
      ]),
    );
    expect(split).toEqual({
      credits: new Map([
        [1, 7_333n],
        [2, 4_888n],
      ]),
      fee: 123n,
      remainder: 1n,
    });
  });

  it('gives the whole value to the pool when the window holds no shares', () => {
    expect(splitByWeight(1_000n, 100, new Map())).toEqual({ credits: new Map(), fee: 10n, remainder: 990n });
  });

  it('pays a SOLO finder the block reward minus 1.0 %', () => {
    expect(splitSolo(5_000_000_000n, 100, 9)).toEqual({
      credits: new Map([[9, 4_950_000_000n]]),
      fee: 50_000_000n,
      remainder: 0n,
    });
  });
});
