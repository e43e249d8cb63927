import { describe, expect, it } from 'vitest';
import { creditPps, windowWeights } from '../accounting/math.js';
import { SHARE_SLOT_MS, slotShareRows } from './slots.js';
import { minerRef, type AcceptedShare, type MinerRef } from './types.js';

const alice = minerRef('BTC', { kind: 'user', userId: 1, username: 'alice' }, 'rig1');
const bob = minerRef('BTC', { kind: 'user', userId: 2, username: 'bob' }, 'rig1');
const ids = new Map([
  [alice.workerKey, 11],
  [bob.workerKey, 12],
]);
const workerId = (m: MinerRef) => ids.get(m.workerKey) as number;
const payeeId = (m: MinerRef) => (m === alice ? 1 : 2);

const share = (miner: MinerRef, atMs: number, over: Partial<AcceptedShare> = {}): AcceptedShare => ({
  miner,
  difficulty: 1_024,
  actualDifficulty: 2_000,
  networkDifficulty: 1e9,
  height: 100,
  scheme: 'pps-plus',
  atMs,
  ...over,
});

describe('slot rows', () => {
  it('folds one worker’s shares of a slot into one row stamped with its last share', () => {
    const t0 = 1_700_000_000_000;
    const rows = slotShareRows(
      [share(alice, t0 + 1), share(alice, t0 + 9_000), share(alice, t0 + 4_000), share(bob, t0 + 5)],
      SHARE_SLOT_MS,
      workerId,
      payeeId,
    );
    expect(rows).toEqual([
      expect.objectContaining({ workerId: 11, payeeId: 1, shareCount: 3, createdAtMs: t0 + 9_000 }),
      expect.objectContaining({ workerId: 12, payeeId: 2, shareCount: 1, createdAtMs: t0 + 5 }),
    ]);
  });

  it('starts a new row at a new slot, share difficulty, network difficulty, height or scheme', () => {
    const t0 = 1_700_000_000_000;
    const rows = slotShareRows(
      [
        share(alice, t0),
        share(alice, t0 + SHARE_SLOT_MS),
        share(alice, t0, { difficulty: 2_048 }),
        share(alice, t0, { networkDifficulty: 2e9 }),
        share(alice, t0, { height: 101 }),
        share(alice, t0, { scheme: 'pplns' }),
        share(alice, t0 + 1),
      ],
      SHARE_SLOT_MS,
      workerId,
      payeeId,
    );
    expect(rows.map((r) => r.shareCount)).toEqual([2, 1, 1, 1, 1, 1]);
  });

  it('is worth, to the last fraction of a base unit, what its shares credited one by one are', () => {
    const subsidy = 312_500_000n;
    const one = { payeeId: 1, difficulty: 1_000.3, networkDifficulty: 7_777_777.7, subsidy };
    const perShare = creditPps(
      Array.from({ length: 977 }, () => one),
      150,
      {
        payees: new Map(),
        pool: 0n,
      },
    );
    const slot = creditPps([{ ...one, count: 977 }], 150, { payees: new Map(), pool: 0n });
    expect(slot).toEqual(perShare);
  });

  it('counts a slot row’s work in a PPLNS window, and only the part inside when it crosses the edge', () => {
    const full = windowWeights([{ payeeId: 1, difficulty: 2, count: 5 }], 20n << 128n);
    expect(full.weights.get(1)).toBe(10n << 128n);
    expect(full.full).toBe(false);
    const cut = windowWeights(
      [
        { payeeId: 1, difficulty: 2, count: 5 },
        { payeeId: 2, difficulty: 1, count: 30 },
      ],
      20n << 128n,
    );
    expect(cut.weights).toEqual(
      new Map([
        [1, 10n << 128n],
        [2, 10n << 128n],
      ]),
    );
    expect(cut.full).toBe(true);
  });

  it('refuses a slot that is not a positive whole number of milliseconds', () => {
    expect(() => slotShareRows([], 0, workerId, payeeId)).toThrow('invalid share slot: 0 ms');
  });
});
