import { coinParams } from '@manjam/protocol';
import { describe, expect, it } from 'vitest';
import type { PayableBalance } from '../db/repositories/payouts.js';
import { outputsOf, paysOutputs, payoutAddressOf, planPayouts } from './payout-plan.js';
import { regtestAddress } from '../../test/support/accounting/fixtures.js';

const now = new Date('2026-11-22T03:00:00Z');
const params = coinParams('BTC', 'regtest');
const user = (over: Partial<PayableBalance>): PayableBalance => ({
  payeeId: 1,
  kind: 'user',
  userId: 7,
  amount: 0n,
  threshold: null,
  payeeAddress: null,
  payoutAddress: null,
  pendingPayoutAddress: null,
  pendingPayoutEffectiveAt: null,
  ...over,
});

describe('payout decisions', () => {
  it('pays a changed address only after its hold has passed, and nothing to an account without an address for the coin', () => {
    const held = user({
      payoutAddress: 'old',
      pendingPayoutAddress: 'new',
      pendingPayoutEffectiveAt: new Date(now.getTime() + 1),
    });
    expect(payoutAddressOf(held, now)).toBe('old');
    expect(payoutAddressOf({ ...held, pendingPayoutEffectiveAt: now }, now)).toBe('new');
    expect(payoutAddressOf(user({}), now)).toBeNull();
  });

  it('uses the user threshold, else the pool default, and wallets always the default', () => {
    const balances = [
      user({ payeeId: 1, amount: 100_000n, threshold: 100_000n, payoutAddress: regtestAddress('a') }),
      user({ payeeId: 2, amount: 999_999n, payoutAddress: regtestAddress('b') }),
      user({
        payeeId: 3,
        kind: 'wallet',
        userId: null,
        amount: 1_000_000n,
        threshold: 100_000n,
        payeeAddress: regtestAddress('c'),
      }),
    ];
    const plan = planPayouts(balances, params, 1_000_000n, now);
    expect(plan.payouts.map((p) => [p.payeeId, p.amount])).toEqual([
      [1, 100_000n],
      [3, 1_000_000n],
    ]);
    expect(plan.skipped).toEqual([{ payeeId: 2, amount: 999_999n, reason: 'below-threshold' }]);
  });

  it('keeps a balance whose address is missing or not a valid address of the coin', () => {
    const plan = planPayouts(
      [
        user({ payeeId: 4, amount: 10n ** 8n }),
        user({ payeeId: 5, amount: 10n ** 8n, payoutAddress: 'ltc1qnotbitcoin' }),
      ],
      params,
      1_000_000n,
      now,
    );
    expect(plan.payouts).toEqual([]);
    expect(plan.skipped.map((s) => s.reason)).toEqual(['no-address', 'invalid-address']);
  });

  it('sums two payees sharing an address into one output and recognises the transaction paying them', () => {
    const outputs = outputsOf([
      { address: 'x', amount: 5n },
      { address: 'y', amount: 2n },
      { address: 'x', amount: 1n },
    ]);
    expect(outputs).toEqual(
      new Map([
        ['x', 6n],
        ['y', 2n],
      ]),
    );
    expect(
      paysOutputs(outputs, [
        { address: 'change', amount: 9n },
        { address: 'y', amount: 2n },
        { address: 'x', amount: 6n },
      ]),
    ).toBe(true);
    expect(
      paysOutputs(outputs, [
        { address: 'x', amount: 6n },
        { address: 'y', amount: 3n },
      ]),
    ).toBe(false);
    expect(paysOutputs(new Map(), [])).toBe(false);
  });
});
