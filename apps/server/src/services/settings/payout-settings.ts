// Per-coin payout settings: the read model of the Settings and Wallet screens and the
// rules of a change. Each coin the pool mines has its own address (validated by its family on the
// coin's configured network), its own pending change with the hold, and its own threshold.
import type { PayoutSetting } from '@manjam/contract';
import { COINS, type Coin } from '@manjam/protocol';
import type { Config } from '../../config/index.js';
import { payoutThresholdBounds } from '../../config/payout-thresholds.js';
import type { PayoutSettingRow } from '../../db/repositories/payout-settings.js';

/** One entry per pool coin, in coin-table order; a coin without a row shows the pool default. */
export function toPayoutSettings(rows: readonly PayoutSettingRow[], config: Config): PayoutSetting[] {
  return COINS.map((coin) => {
    const row = rows.find((r) => r.coin === coin);
    const bounds = payoutThresholdBounds(config.accounting.payoutThresholds, coin);
    return {
      coin,
      address: row?.address ?? null,
      pendingAddress: row?.pendingAddress ?? null,
      pendingEffectiveAt: row?.pendingEffectiveAt?.toISOString() ?? null,
      threshold: (row?.threshold ?? bounds.default).toString(),
      minimumThreshold: bounds.minimum.toString(),
      maximumThreshold: bounds.maximum.toString(),
    };
  });
}

/**
 * When a new address of `coin` takes effect: at once when the coin has no address yet (nothing
 * to redirect), when it is the address already in force, or with no hold configured; otherwise
 * after config.accounting.payoutAddressHoldHours (a stolen session cannot redirect payouts at once).
 * A pending change of another coin is never touched.
 */
export function effectiveAtOf(
  current: PayoutSettingRow | undefined,
  address: string,
  holdHours: number,
  now: number,
): Date | null {
  const holdMs = holdHours * 3_600_000;
  if (!current?.address || holdMs === 0 || current.address === address) return null;
  return new Date(now + holdMs);
}

/** Whether `threshold` (base units of `coin`) is within the coin's configured range. */
export function thresholdInRange(threshold: bigint, coin: Coin, config: Config): boolean {
  const bounds = payoutThresholdBounds(config.accounting.payoutThresholds, coin);
  return threshold >= bounds.minimum && threshold <= bounds.maximum;
}
