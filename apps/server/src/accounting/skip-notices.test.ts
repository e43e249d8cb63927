import { describe, expect, it } from 'vitest';
import type { SkippedPayee } from './payout-plan.js';
import { SkipNotices } from './skip-notices.js';

const noAddress = (payeeId: number, amount = 5n): SkippedPayee => ({ payeeId, amount, reason: 'no-address' });
const invalid = (payeeId: number, address: string): SkippedPayee => ({
  payeeId,
  amount: 5n,
  reason: 'invalid-address',
  address,
});

describe('SkipNotices', () => {
  it('tells a payee once while it stays unpayable, whatever its balance grows to', () => {
    const notices = new SkipNotices();
    expect(notices.fresh('BTC', [noAddress(1)])).toEqual([noAddress(1)]);
    expect(notices.fresh('BTC', [noAddress(1, 6n)])).toEqual([]);
    expect(notices.fresh('BTC', [noAddress(1, 7n), noAddress(2)])).toEqual([noAddress(2)]);
    expect(notices.fresh('BTC', [noAddress(1, 8n), noAddress(2)])).toEqual([]);
  });

  it('tells it again when its situation changes: another bad address, or unpayable again after being paid', () => {
    const notices = new SkipNotices();
    notices.fresh('BTC', [invalid(1, 'bad-1')]);
    expect(notices.fresh('BTC', [invalid(1, 'bad-2')])).toEqual([invalid(1, 'bad-2')]);
    expect(notices.fresh('BTC', [noAddress(1)])).toEqual([noAddress(1)]);
    expect(notices.fresh('BTC', [])).toEqual([]); // paid: forgotten
    expect(notices.fresh('BTC', [noAddress(1)])).toEqual([noAddress(1)]);
  });

  it('keeps coins apart and keeps only the payees of each coin last skipped', () => {
    const notices = new SkipNotices();
    expect(notices.fresh('BTC', [noAddress(1)])).toHaveLength(1);
    expect(notices.fresh('LTC', [noAddress(1)])).toHaveLength(1);
    expect(notices.fresh('BTC', [noAddress(1)])).toEqual([]);
    // 10 000 payees come and go; afterwards a new one is told and the old ones are not held.
    for (let i = 100; i < 10_100; i++) notices.fresh('BTC', [noAddress(i)]);
    expect(notices.fresh('BTC', [noAddress(100)])).toEqual([noAddress(100)]);
    expect(notices.fresh('LTC', [noAddress(1)])).toEqual([]);
  });
});
