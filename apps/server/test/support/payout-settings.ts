import { settingsSchema, type PayoutSetting } from '@manjam/contract';

/** One coin's entry of a GET/PUT /api/settings answer (parsed with the contract). */
export function payoutOf(settings: unknown, coin: string): PayoutSetting {
  const entry = settingsSchema.parse(settings).payouts.find((p) => p.coin === coin);
  if (!entry) throw new Error(`no payout settings for ${coin}`);
  return entry;
}
