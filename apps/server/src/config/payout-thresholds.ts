// Payout thresholds per coin: their defaults and the ranges an account may choose are the coin
// table's (protocol's coin-table.ts), each overridable in the config. Amounts are in coin units
// as decimal strings (what an operator writes in the config file); code reads them as bigint base
// units of the coin through payoutThresholdBounds.
import { COIN_TABLE, decimalsOf, parseCoinAmount } from '@manjam/protocol';
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

/** config.accounting.payoutThresholds: every pool coin (its default the coin table's), each overridable on its own. */
export const payoutThresholdsSchema = z
  .object(
    Object.fromEntries(
      COIN_IDS.map((coin) => [coin, bounds.default({ ...COIN_TABLE[coin].payoutThreshold })]),
    ) as {
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
