// Money from the first share: what a user has earned that no daily reward row shows yet. The
// dashboard, the Revenue summary and the assistant all read it from here.
import type { Unsettled } from '@manjam/contract';
import { settlementDayStart } from '../../accounting/settlement.js';
import type { RevenueQueries } from '../../db/repositories/queries-revenue.js';

export interface UnsettledMoney {
  /** Net credits since `accruedSince` (estimated until the daily close settles the day). */
  accrued: bigint;
  /** Start of the open settlement day (settlementHourUtc; default 00:00 UTC). */
  accruedSince: Date;
  /** The user's share of found blocks that are not mature yet. */
  immature: bigint;
  immatureBlocks: number;
}

/** Today's accrued credits and immature block credits of one user on one coin. */
export async function unsettledMoney(
  queries: RevenueQueries,
  userId: number,
  coin: string,
  now: Date,
  settlementHourUtc: number,
): Promise<UnsettledMoney> {
  const accruedSince = settlementDayStart(now, settlementHourUtc);
  const figures = await queries.unsettled(userId, coin, accruedSince);
  return { ...figures, accruedSince };
}

/** The contract's shape (base-unit strings, ISO time). */
export function toUnsettled(money: UnsettledMoney): Unsettled {
  return {
    accrued: money.accrued.toString(),
    accruedSince: money.accruedSince.toISOString(),
    immature: money.immature.toString(),
    immatureBlocks: money.immatureBlocks,
  };
}
