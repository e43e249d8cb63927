// Payout thresholds per coin (issue 27): the one place their default and the range an account may
// choose are defined. Amounts are in coin units as decimal strings (what an operator writes in the
// config file); code reads them as bigint base units of the coin through payoutThresholdBounds.
import { decimalsOf, parseCoinAmount } from '@manjam/protocol';
import { z } from 'zod';
import { COIN_IDS, type CoinId } from './constants.js';

const coinAmount = z.string().regex(/^\d{1,18}(\.\d{1,18})?$/, 'a coin amount such as "0.01"');

/** Exact comparison of two configured amounts (bigint at 18 places, never a float). */
const exact = (text: string): bigint => parseCoinAmount(text, 18);

const bounds = z
  .object({ minimum: coinAmount, default: coinAmount, maximum: coinAmount })
  .refine((b) => exact(b.minimum) > 0n && exact(b.minimum) <= exact(b.default), {
    message: 'minimum must be positive and at most the default',
  })
  .refine((b) => exact(b.default) <= exact(b.maximum), { message: 'default must be at most the maximum' });
export type PayoutThresholdConfig = z.infer<typeof bounds>;

/**
 * Defaults. BTC, LTC and XMR keep the old pool default (0.01) and its smallest choice (0.001) as
 * the minimum, so every threshold saved before stays valid; the maximum is a typo guard (a
 * balance above it is still paid at the threshold chosen). KAS: 1 KAS minimum, because Kaspa's
 * storage mass (KIP-9) makes an output of a fraction of a KAS cost more than it carries, and a
 * 10 KAS default.
 */
export const DEFAULT_PAYOUT_THRESHOLDS: Record<CoinId, PayoutThresholdConfig> = {
  BTC: { minimum: '0.001', default: '0.01', maximum: '100' },
  LTC: { minimum: '0.001', default: '0.01', maximum: '10000' },
  XMR: { minimum: '0.001', default: '0.01', maximum: '10000' },
  KAS: { minimum: '1', default: '10', maximum: '10000000' },
};

/** config.accounting.payoutThresholds: every pool coin, each overridable on its own. */
export const payoutThresholdsSchema = z
  .object(
    Object.fromEntries(COIN_IDS.map((coin) => [coin, bounds.default(DEFAULT_PAYOUT_THRESHOLDS[coin])])) as {
      [C in CoinId]: z.ZodDefault<typeof bounds>;
    },
  )
  .prefault({});

export interface PayoutThresholdBounds {
  minimum: bigint;
  default: bigint;
  maximum: bigint;
}

/** A coin's threshold bounds in its base units. */
export function payoutThresholdBounds(
  thresholds: Record<CoinId, PayoutThresholdConfig>,
  coin: CoinId,
): PayoutThresholdBounds {
  const decimals = decimalsOf(coin);
  const row = thresholds[coin];
  return {
    minimum: parseCoinAmount(row.minimum, decimals),
    default: parseCoinAmount(row.default, decimals),
    maximum: parseCoinAmount(row.maximum, decimals),
  };
}
