// PPS credits: the subsidy part of PPS+ is credited per accepted share, at the network difficulty
// of the moment, whether or not the pool finds a block. PAYABILITY RULE: PPS credits are written
// as shares are processed and are payable at once, as PPS promises (the pool carries the luck);
// an orphaned block never takes them back.
//
// XMR: Monero's reward follows the coins already emitted (and the block's fees), not the height, so
// a share is valued at the expected_reward of its height's first template, recorded per height by
// the Stratum side (template_rewards; REWARD RULE in coins/monero/stratum/template-source.ts). monerod does
// not split that reward into base reward and fees, so XMR's PPS part pays the whole of it; a found
// block's fee part is only what a later template of its height added (transactions that arrived
// after the first template), shared like any PPS+ block's fees.
import { COIN_TABLE, shareValuer } from '@manjam/protocol';
import type { CoinId } from '../config/constants.js';
import {
  LedgerRepository,
  PpsCreditRepository,
  type LedgerEntryInput,
  type UncreditedShare,
} from '../db/repositories/ledger.js';
import type { Queryable } from '../db/index.js';
import { CreditProgressRepository } from '../db/repositories/credit-progress.js';
import { feeBpsOf, type AccountingContext } from './context.js';
import { creditPps, type PpsShare } from './math.js';
import { settlementDayOf } from './settlement.js';
import { inSlices } from './slices.js';

export interface PpsBatchResult {
  /** Shares credited (a slot row counts its shares). */
  shares: number;
  credited: bigint;
  fee: bigint;
}

/**
 * Credits every uncredited share of a coin in bounded slices (slices.ts): `batchSize` rows per
 * transaction (default `accounting.sliceShares`; a slot row of the share log carries many shares
 * and is valued as that many, exactly), each marking its rows credited with their ledger entries.
 * Returns the totals.
 */
export async function creditShares(
  ctx: AccountingContext,
  coin: CoinId,
  batchSize = ctx.config.accounting.sliceShares,
): Promise<PpsBatchResult> {
  const total: PpsBatchResult = { shares: 0, credited: 0n, fee: 0n };
  await inSlices(ctx, async () => {
    const batch = await ctx.db.transaction((tx) => creditBatch(ctx, tx, coin, batchSize));
    total.shares += batch.shares;
    total.credited += batch.credited;
    total.fee += batch.fee;
    ctx.metrics.inc('shares_credited_total', batch.shares);
    ctx.metrics.inc('pps_credited_base_units', batch.credited);
    return batch.rows === batchSize;
  });
  return total;
}

/**
 * The cycle's credits step: credits every share it can (creditShares), then records how far the
 * coin is credited, which the money screens show ("credited up to 14:05"). PROGRESS RULE: every
 * share the database held when the step began is credited once the step ends caught up, so the
 * mark is the step's start; a share still waiting (an XMR share whose template reward is not
 * recorded yet, or one that arrived during the step) holds the mark at its own time. A step cut
 * short by stop() records nothing. A cycle that stops running leaves the mark where it was, so the
 * screens see it age and say the credits are behind.
 */
export async function creditAndRecord(ctx: AccountingContext, coin: CoinId): Promise<PpsBatchResult> {
  const started = ctx.now();
  const total = await creditShares(ctx, coin);
  if (ctx.stopping()) return total;
  const progress = new CreditProgressRepository(ctx.db);
  const waiting = await progress.oldestUncreditedAt(coin);
  await progress.record(coin, waiting && waiting < started ? waiting : started);
  return total;
}

/** Groups shares by settlement day: PPS credits are dated by their shares so each lands in its day. */
function groupByDay(shares: readonly UncreditedShare[], hourUtc: number): UncreditedShare[][] {
  const groups = new Map<string, UncreditedShare[]>();
  for (const share of shares) {
    const key = settlementDayOf(share.createdAt, hourUtc);
    const group = groups.get(key) ?? [];
    group.push(share);
    groups.set(key, group);
  }
  return [...groups.keys()].sort().map((key) => groups.get(key) ?? []);
}

/** What a share of a coin is valued at (the coin table's rule: its height's subsidy, or its template's reward). */
function subsidyAt(ctx: AccountingContext, coin: CoinId): (row: UncreditedShare) => bigint {
  const valueAt = shareValuer(coin, ctx.config.chains[coin].network);
  return (row) => valueAt(row.height, row.templateReward);
}

/** PPS+ shares that can be valued, and those whose difficulty or network difficulty is not positive. */
function partitionPps(rows: readonly UncreditedShare[]): {
  valuable: UncreditedShare[];
  unvaluable: UncreditedShare[];
} {
  const valuable: UncreditedShare[] = [];
  const unvaluable: UncreditedShare[] = [];
  const positive = (x: number): boolean => Number.isFinite(x) && x > 0;
  for (const row of rows) {
    if (row.scheme !== 'pps-plus') continue;
    (positive(row.difficulty) && positive(row.networkDifficulty) ? valuable : unvaluable).push(row);
  }
  return { valuable, unvaluable };
}

async function creditBatch(
  ctx: AccountingContext,
  tx: Queryable,
  coin: CoinId,
  batchSize: number,
): Promise<PpsBatchResult & { rows: number }> {
  const shares = new PpsCreditRepository(tx);
  const ledger = new LedgerRepository(tx);
  const rows = await shares.uncreditedShares(
    coin,
    batchSize,
    COIN_TABLE[coin].shareValue === 'template-reward',
  );
  if (rows.length === 0) return { rows: 0, shares: 0, credited: 0n, fee: 0n };
  const subsidyOf = subsidyAt(ctx, coin);
  const feeBps = feeBpsOf(ctx.config, coin);
  const { valuable: pps, unvaluable } = partitionPps(rows);
  if (unvaluable.length > 0) {
    ctx.metrics.inc(
      'shares_unvaluable_total',
      unvaluable.reduce((n, row) => n + row.shareCount, 0),
    );
    ctx.logger.error(
      { coin, shareIds: unvaluable.map((r) => r.id.toString()) },
      'shares with a non-positive difficulty cannot be valued: not credited',
    );
  }
  const poolId = await ledger.ensurePoolPayee(coin);
  const payeeIds = [...new Set(pps.map((row) => row.payeeId))];
  const carried = await shares.carries(coin, [...payeeIds, poolId]);
  let poolCarry = carried.get(poolId) ?? 0n;
  const shareCount = rows.reduce((n, row) => n + row.shareCount, 0);
  const result = { rows: rows.length, shares: shareCount, credited: 0n, fee: 0n };
  const entries: LedgerEntryInput[] = [];
  for (const group of groupByDay(pps, ctx.config.accounting.settlementHourUtc)) {
    const first = group[0];
    const last = group[group.length - 1];
    if (!first || !last) continue;
    const input: PpsShare[] = group.map((row) => ({
      payeeId: row.payeeId,
      difficulty: row.difficulty,
      networkDifficulty: row.networkDifficulty,
      subsidy: subsidyOf(row),
      count: row.shareCount,
    }));
    const split = creditPps(input, feeBps, { payees: carried, pool: poolCarry });
    const range = `${coin}:${first.id}-${last.id}`;
    const createdAt = last.createdAt;
    for (const [payeeId, credit] of split.credits) {
      carried.set(payeeId, split.carry.payees.get(payeeId) ?? 0n);
      if (credit > 0n)
        entries.push({
          payeeId,
          coin,
          amount: credit,
          reason: 'pps',
          reference: `pps:${range}:${payeeId}`,
          createdAt,
        });
      result.credited += credit;
    }
    poolCarry = split.carry.pool;
    if (split.fee > 0n)
      entries.push({
        payeeId: poolId,
        coin,
        amount: split.fee,
        reason: 'fee',
        reference: `pps-fee:${range}`,
        createdAt,
      });
    result.fee += split.fee;
  }
  await ledger.append(entries);
  const fractions = new Map(payeeIds.map((payeeId) => [payeeId, carried.get(payeeId) ?? 0n] as const));
  fractions.set(poolId, poolCarry);
  await shares.saveCarries(coin, fractions);
  await shares.markCredited(rows.map((row) => row.id));
  return result;
}
