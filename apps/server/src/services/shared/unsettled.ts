// Money from the first share: what a user has earned that no daily reward row shows yet, and how
// old those figures are. The dashboard, the Revenue summary and the assistant all read it from here.
import type { Unsettled } from '@manjam/contract';
import { settlementDayStart } from '../../accounting/settlement.js';
import type { Config } from '../../config/index.js';
import type { RevenueQueries } from '../../db/repositories/queries-revenue.js';

/** The accounting settings the money figures are read with (one place: moneyClockOf). */
export interface MoneyClock {
  /** config.accounting.settlementHourUtc: when the open (not yet settled) day began. */
  settlementHourUtc: number;
  /** Credits older than this (cycleSeconds x creditsBehindCycles) are shown as behind; absent: never judged. */
  creditsBehindMs?: number;
}

export function moneyClockOf(config: Pick<Config, 'accounting'>): MoneyClock {
  const { settlementHourUtc, cycleSeconds, creditsBehindCycles } = config.accounting;
  return { settlementHourUtc, creditsBehindMs: cycleSeconds * creditsBehindCycles * 1000 };
}

export interface UnsettledMoney {
  /** Net earnings since `accruedSince` (estimated until the daily close settles the day). */
  accrued: bigint;
  /** Start of the open settlement day (settlementHourUtc; default 00:00 UTC). */
  accruedSince: Date;
  /** The user's share of found blocks that are not mature yet. */
  immature: bigint;
  immatureBlocks: number;
  /** The coin's shares are credited up to this moment (null before accounting first ran for it). */
  creditedUpTo: Date | null;
  /** creditedUpTo is older than clock.creditsBehindMs: accounting is stopped or behind. */
  creditsBehind: boolean;
}

/** Today's accrued credits and immature block credits of one user on one coin, and their age. */
export async function unsettledMoney(
  queries: RevenueQueries,
  userId: number,
  coin: string,
  now: Date,
  clock: MoneyClock,
): Promise<UnsettledMoney> {
  const accruedSince = settlementDayStart(now, clock.settlementHourUtc);
  const { creditedThrough, ...figures } = await queries.unsettled(userId, coin, accruedSince);
  return {
    ...figures,
    accruedSince,
    creditedUpTo: creditedThrough,
    creditsBehind:
      creditedThrough !== null &&
      clock.creditsBehindMs !== undefined &&
      now.getTime() - creditedThrough.getTime() > clock.creditsBehindMs,
  };
}

/** The contract's shape (base-unit strings, ISO time). */
export function toUnsettled(money: UnsettledMoney): Unsettled {
  return {
    accrued: money.accrued.toString(),
    accruedSince: money.accruedSince.toISOString(),
    immature: money.immature.toString(),
    immatureBlocks: money.immatureBlocks,
    creditedUpTo: money.creditedUpTo?.toISOString() ?? null,
    creditsBehind: money.creditsBehind,
  };
}
