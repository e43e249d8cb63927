// Fixing a found block's split (BLOCK CREDIT RULE, blocks.ts): PPLNS reward, PPS+ transaction fees
// or SOLO reward over the window of shares at the block's time, with its effort. Blocks are planned
// in slices of `accounting.sliceBlocks` (slices.ts); each block's plan rows and its planned_at are
// written in one transaction, so a cycle cut short between blocks plans none twice.
import type { CoinId } from '../config/constants.js';
import {
  BlockLifecycleRepository,
  type CreditPlanRow,
  type LifecycleBlock,
} from '../db/repositories/block-lifecycle.js';
import { LedgerRepository } from '../db/repositories/ledger.js';
import { feeBpsOf, type AccountingContext } from './context.js';
import { splitByWeight, splitSolo, windowWeights, windowWork, type BlockSplit } from './math.js';
import { inSlices } from './slices.js';

/**
 * Window pages grow from FIRST to MAX rows: a small window (a low network difficulty, a regtest
 * backlog of thousands of blocks) costs one short read per block, a large one a few long reads.
 */
const FIRST_WINDOW_PAGE = 64;
const MAX_WINDOW_PAGE = 5_000;

/** The split of one block as plan rows (zero amounts left out). */
export function planRows(
  split: BlockSplit,
  poolPayeeId: number,
  creditReason: 'pplns' | 'solo',
): CreditPlanRow[] {
  const rows: CreditPlanRow[] = [];
  for (const [payeeId, amount] of split.credits)
    rows.push({ label: `payee:${payeeId}`, payeeId, reason: creditReason, amount });
  if (split.fee > 0n) rows.push({ label: 'fee', payeeId: poolPayeeId, reason: 'fee', amount: split.fee });
  if (split.remainder > 0n)
    rows.push({ label: 'remainder', payeeId: poolPayeeId, reason: 'fee', amount: split.remainder });
  return rows;
}

/** Weights of the last N = factor x W work units of a scheme's shares at the block's time. */
async function pplnsWeights(
  ctx: AccountingContext,
  repo: BlockLifecycleRepository,
  block: LifecycleBlock,
): Promise<Map<number, bigint>> {
  const window = windowWork(block.networkDifficulty, ctx.config.accounting.pplnsWindowFactor);
  const weights = new Map<number, bigint>();
  let counted = 0n;
  let cursor: { createdAt: Date; id: bigint } | null = null;
  for (let size = FIRST_WINDOW_PAGE; ; size = Math.min(size * 2, MAX_WINDOW_PAGE)) {
    const page = await repo.windowPage(block.coin, block.scheme, block.foundAt, cursor, size);
    const step = windowWeights(page, window, weights, counted);
    counted = step.counted;
    const last = page[page.length - 1];
    if (step.full || page.length < size || !last) return weights;
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

/** Computes a block's split from its scheme. */
export async function splitBlock(
  ctx: AccountingContext,
  repo: BlockLifecycleRepository,
  block: LifecycleBlock,
): Promise<BlockSplit> {
  const feeBps = feeBpsOf(ctx.config, block.coin as CoinId);
  if (block.scheme === 'solo') {
    return block.finderPayeeId === null
      ? splitByWeight(block.reward, feeBps, new Map())
      : splitSolo(block.reward, feeBps, block.finderPayeeId);
  }
  const value = block.scheme === 'pplns' ? block.reward : block.fees;
  return splitByWeight(value, feeBps, await pplnsWeights(ctx, repo, block));
}

/** Effort: the work of the shares since the pool's previous block / the block's network difficulty. */
async function effortOf(repo: BlockLifecycleRepository, block: LifecycleBlock): Promise<number | null> {
  if (!(block.networkDifficulty > 0)) return null;
  const since = await repo.previousFoundAt(block.coin, block);
  return (await repo.shareDifficultySum(block.coin, since, block.foundAt)) / block.networkDifficulty;
}

/** Fixes the split of every block not yet planned, `accounting.sliceBlocks` blocks per slice. */
export async function planBlocks(ctx: AccountingContext, coin: CoinId): Promise<number> {
  const repo = new BlockLifecycleRepository(ctx.db);
  const limit = ctx.config.accounting.sliceBlocks;
  let planned = 0;
  // The pool's payee of a coin never changes once it exists: asked once per call that has blocks
  // to plan (not per block, and not on the usual cycle with none: the upsert writes a row version).
  let poolPayeeId: number | undefined;
  await inSlices(ctx, async () => {
    const blocks = await repo.unplanned(coin, limit);
    if (blocks.length === 0) return false;
    poolPayeeId ??= await new LedgerRepository(ctx.db).ensurePoolPayee(coin);
    for (const block of blocks) if (await planBlock(ctx, repo, block, poolPayeeId)) planned++;
    return blocks.length === limit;
  });
  ctx.metrics.inc('blocks_planned_total', planned);
  return planned;
}

/** One block's split and effort, saved with its planned_at in one transaction; false if already planned. */
async function planBlock(
  ctx: AccountingContext,
  repo: BlockLifecycleRepository,
  block: LifecycleBlock,
  poolPayeeId: number,
): Promise<boolean> {
  const split = await splitBlock(ctx, repo, block);
  const effort = await effortOf(repo, block);
  const reason = block.scheme === 'solo' ? 'solo' : 'pplns';
  return ctx.db.transaction((tx) =>
    new BlockLifecycleRepository(tx).savePlan(block.id, planRows(split, poolPayeeId, reason), effort),
  );
}
