import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AMOUNT_ONE, creditPps, splitByWeight, windowWeights, windowWork, type PpsShare } from './math.js';

const difficulty = fc.double({ min: 1e-6, max: 1e9, noNaN: true, noDefaultInfinity: true });
const share = fc.record({
  payeeId: fc.integer({ min: 1, max: 6 }),
  difficulty,
  networkDifficulty: difficulty,
  subsidy: fc.bigInt({ min: 0n, max: 5_000_000_000n }),
});
const fee = fc.integer({ min: 0, max: 10_000 });
const carryOf = fc.bigInt({ min: 0n, max: AMOUNT_ONE - 1n });

describe('scheme arithmetic over random share streams', () => {
  it('PPS: credits + pool fee + carried fractions equal the value of the shares, exactly', () => {
    fc.assert(
      fc.property(
        fc.array(share, { maxLength: 60 }),
        fee,
        fc.array(carryOf, { minLength: 7, maxLength: 7 }),
        (shares, bps, carries) => {
          const old = new Map(carries.slice(1).map((c, i) => [i + 1, c] as const));
          const oldPool = carries[0] ?? 0n;
          const result = creditPps(shares, bps, { payees: old, pool: oldPool });
          const credited = [...result.credits.values()].reduce((a, b) => a + b, 0n);
          let carryDelta = result.carry.pool - oldPool;
          for (const [payeeId, fraction] of result.carry.payees) {
            expect(fraction).toBeGreaterThanOrEqual(0n);
            expect(fraction).toBeLessThan(AMOUNT_ONE);
            carryDelta += fraction - (old.get(payeeId) ?? 0n);
          }
          expect(AMOUNT_ONE * (credited + result.fee) + carryDelta).toBe(result.grossFp);
        },
      ),
    );
  });

  it('PPS: the same shares in any order give the same credits', () => {
    fc.assert(
      fc.property(fc.array(share, { maxLength: 40 }), fee, (shares: PpsShare[], bps) => {
        const a = creditPps(shares, bps, { payees: new Map(), pool: 0n });
        const b = creditPps([...shares].reverse(), bps, { payees: new Map(), pool: 0n });
        expect(b.credits).toEqual(a.credits);
        expect(b.fee).toBe(a.fee);
      }),
    );
  });

  it('PPLNS: credits + fee + remainder equal the value distributed, and the remainder is under one unit per payee', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ payeeId: fc.integer({ min: 1, max: 8 }), difficulty }), { maxLength: 80 }),
        difficulty,
        fc.double({ min: 0.1, max: 5, noNaN: true }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fee,
        (shares, network, factor, value, bps) => {
          const { weights } = windowWeights(shares, windowWork(network, factor));
          const split = splitByWeight(value, bps, weights);
          const credited = [...split.credits.values()].reduce((a, b) => a + b, 0n);
          expect(credited + split.fee + split.remainder).toBe(value);
          expect(split.remainder).toBeGreaterThanOrEqual(0n);
          if (weights.size > 0) expect(split.remainder).toBeLessThan(BigInt(weights.size));
          const again = splitByWeight(value, bps, new Map([...weights].reverse()));
          expect(again).toEqual(split);
        },
      ),
    );
  });
});
