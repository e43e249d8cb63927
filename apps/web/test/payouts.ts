import type { PayoutSetting } from '../src/lib/api-types';

/** GET /api/settings `payouts` of an account with no payout address yet: every pool coin at the pool defaults. */
export const UNSET_PAYOUTS: PayoutSetting[] = [
  { coin: 'BTC', threshold: '1000000', minimumThreshold: '100000', maximumThreshold: '10000000000' },
  { coin: 'LTC', threshold: '1000000', minimumThreshold: '100000', maximumThreshold: '1000000000000' },
  {
    coin: 'XMR',
    threshold: '10000000000',
    minimumThreshold: '1000000000',
    maximumThreshold: '10000000000000000',
  },
  {
    coin: 'KAS',
    threshold: '1000000000',
    minimumThreshold: '100000000',
    maximumThreshold: '1000000000000000',
  },
].map((entry) => ({
  ...entry,
  coin: entry.coin as PayoutSetting['coin'],
  address: null,
  pendingAddress: null,
  pendingEffectiveAt: null,
}));
