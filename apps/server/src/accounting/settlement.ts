// Daily settlement: one row per payee, coin and closed day — the Revenue screen's Rewards tab.
// A day runs from settlementHourUtc (default 00:00 UTC = 03:00 Riyadh) to the same hour the next
// day. Rows are upserted, and the last two settled days are recomputed on every pass, so credits
// that land late (a batch committed just after midnight) still reach their day's row. Days queued
// for a correction (settlement_redo: e.g. migration 0660 queued the days whose rows had counted a
// payout refund as earnings) have their amounts recomputed first, whatever their age.
import type { CoinId } from '../config/constants.js';
import { SettlementsRepository } from '../db/repositories/settlements.js';
import { hashesPerDifficulty, type AccountingContext } from './context.js';
import { yieldToOthers } from './slices.js';

const DAY_MS = 86_400_000;
/** A day is settled this long after it closes (share writers and credit batches catch up). */
export const SETTLEMENT_GRACE_MS = 5 * 60_000;
const MAX_DAYS_PER_PASS = 400;

const dayStart = (day: string, hourUtc: number): Date =>
  new Date(Date.parse(`${day}T00:00:00Z`) + hourUtc * 3_600_000);
const addDays = (day: string, n: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
/** The settlement day a moment belongs to. */
export const settlementDayOf = (at: Date, hourUtc: number): string =>
  new Date(at.getTime() - hourUtc * 3_600_000).toISOString().slice(0, 10);

/** When the settlement day that `at` falls in began (the open day the daily close has not settled). */
export const settlementDayStart = (at: Date, hourUtc: number): Date =>
  dayStart(settlementDayOf(at, hourUtc), hourUtc);

/** Settles every closed day not yet settled (and refreshes the last two). Returns rows written. */
export async function settleDays(ctx: AccountingContext, coin: CoinId): Promise<number> {
  const repo = new SettlementsRepository(ctx.db);
  const hour = ctx.config.accounting.settlementHourUtc;
  await settleQueued(ctx, repo, coin);
  const now = ctx.now();
  const lastClosed = settlementDayOf(new Date(now.getTime() - SETTLEMENT_GRACE_MS - DAY_MS), hour);
  const settled = await repo.lastSettledDay(coin);
  let from: string;
  if (settled) {
    from = addDays(settled, -1);
  } else {
    const first = await repo.firstActivity(coin);
    if (!first) return 0;
    from = settlementDayOf(first, hour);
  }
  let written = 0;
  for (let day = from, n = 0; day <= lastClosed && n < MAX_DAYS_PER_PASS; day = addDays(day, 1), n++) {
    written += await settleDay(ctx, repo, coin, day);
    await yieldToOthers(); // a day is a slice: queued API queries run between days (slices.ts)
  }
  ctx.metrics.inc('settlement_rows_written_total', written);
  return written;
}

/**
 * Recomputes the amounts of the settled days queued in settlement_redo (per day, one transaction
 * each) and empties the queue for them. Only amounts move: the hashrate and difficulty of an old
 * day stay as they were settled. Returns the rows corrected.
 */
export async function settleQueued(
  ctx: AccountingContext,
  repo: SettlementsRepository,
  coin: CoinId,
): Promise<number> {
  const hour = ctx.config.accounting.settlementHourUtc;
  const byDay = new Map<string, Set<number>>();
  for (const { payeeId, at } of await repo.queuedRedo(coin)) {
    const day = settlementDayOf(at, hour);
    byDay.set(day, (byDay.get(day) ?? new Set()).add(payeeId));
  }
  let corrected = 0;
  for (const [day, payees] of byDay) {
    const start = dayStart(day, hour);
    const end = new Date(start.getTime() + DAY_MS);
    corrected += await ctx.db.transaction((tx) =>
      new SettlementsRepository(tx).redoAmounts(coin, day, [...payees], start, end),
    );
    await yieldToOthers();
  }
  if (corrected > 0) ctx.logger.info({ coin, days: byDay.size, rows: corrected }, 'settled days corrected');
  return corrected;
}

/** Computes and upserts one day's rows. */
export async function settleDay(
  ctx: AccountingContext,
  repo: SettlementsRepository,
  coin: CoinId,
  day: string,
): Promise<number> {
  const hour = ctx.config.accounting.settlementHourUtc;
  const start = dayStart(day, hour);
  const end = new Date(start.getTime() + DAY_MS);
  const figures = await repo.figures(coin, start, end);
  for (const f of figures) {
    await repo.upsert({
      payeeId: f.payeeId,
      coin,
      day,
      avgHashrate: (f.difficultySum * hashesPerDifficulty(coin)) / 86_400,
      amount: f.amount,
      networkDifficulty: f.networkDifficulty,
      scheme: f.scheme,
    });
  }
  return figures.length;
}
