// Found blocks: pending -> confirmed (mature) or orphaned (left the main chain).
//
// BLOCK CREDIT RULE: a block's split (PPLNS reward, PPS+ transaction fees, SOLO reward) is fixed
// when the block is first seen pending — while the window's shares are still kept — and stored in
// block_credit_plans. Its ledger credits are written when the block matures (coinbase maturity,
// 100 confirmations), so block-based credits become payable exactly when the coins do. A block
// that leaves the main chain before that is orphaned and never credits; one that leaves it after
// (a reorg deeper than maturity) is orphaned and every credit it wrote is reversed. PPS credits
// (credits.ts) stand either way.
import { coinbaseMaturityOf } from '@manjam/protocol';
import type { CoinId } from '../config/constants.js';
import { BlockLifecycleRepository, type LifecycleBlock } from '../db/repositories/block-lifecycle.js';
import { LedgerRepository, type LedgerEntryInput } from '../db/repositories/ledger.js';
import { planBlocks } from './block-plans.js';
import { blockReturnedKey } from './recredit-block.js';
import { chainOf, type AccountingContext } from './context.js';
import { inSlices } from './slices.js';

/** A block whose submission had no clear answer is 'rejected' once the chain is this far past it without it. */
export const SUBMITTED_GIVE_UP_DEPTH = 6;

/** Tells the live feed and alerts a block's new status. */
function emitStatus(
  ctx: AccountingContext,
  block: LifecycleBlock,
  status: 'pending' | 'confirmed' | 'orphaned',
): void {
  ctx.events.emit('block.status', {
    coin: block.coin as CoinId,
    height: block.height,
    hash: block.hash,
    status,
  });
}

/** Writes a matured block's planned credits and marks it confirmed, in one transaction. */
async function confirmBlock(
  ctx: AccountingContext,
  block: LifecycleBlock,
  confirmations: number,
): Promise<void> {
  const done = await ctx.db.transaction(async (tx) => {
    const repo = new BlockLifecycleRepository(tx);
    if (!(await repo.markConfirmed(block.id, confirmations))) return false;
    const entries: LedgerEntryInput[] = (await repo.plan(block.id)).map((row) => ({
      payeeId: row.payeeId,
      coin: block.coin,
      amount: row.amount,
      reason: row.reason,
      reference: `block:${block.id}:${row.label}`,
      blockId: block.id,
    }));
    await new LedgerRepository(tx).append(entries);
    return true;
  });
  if (!done) return;
  ctx.metrics.inc('blocks_confirmed_total');
  ctx.logger.info(
    { coin: block.coin, height: block.height, hash: block.hash, confirmations },
    'block confirmed; its credits are written',
  );
  emitStatus(ctx, block, 'confirmed');
}

/** Marks a block orphaned and reverses every block credit it wrote, in one transaction. */
async function orphanBlock(ctx: AccountingContext, block: LifecycleBlock): Promise<void> {
  const reversed = await ctx.db.transaction(async (tx) => {
    const ledger = new LedgerRepository(tx);
    const written = (await ledger.entriesForBlock(block.id)).filter((e) => e.reason !== 'reversal');
    if (!(await new BlockLifecycleRepository(tx).markOrphaned(block.id, written.length > 0))) return -1;
    const reversals: LedgerEntryInput[] = written.map((e) => ({
      payeeId: e.payeeId,
      coin: e.coin,
      amount: -e.amount,
      reason: 'reversal',
      reference: `reversal:${e.reference}`,
      blockId: block.id,
    }));
    return (await ledger.append(reversals)).length;
  });
  if (reversed < 0) return;
  ctx.metrics.inc('blocks_orphaned_total');
  ctx.metrics.inc('block_credits_reversed_total', reversed);
  ctx.logger.warn(
    { coin: block.coin, height: block.height, hash: block.hash, reversed },
    'block left the main chain: orphaned',
  );
  emitStatus(ctx, block, 'orphaned');
}

/**
 * A confirmed block that a reorg left below coinbase maturity (its coinbase cannot be spent yet):
 * back to pending. Its credits stay written but are held (not payable, see
 * PayoutsRepository.payableBalances) until it is mature again; if it leaves the chain instead,
 * orphanBlock reverses them once.
 */
async function holdBlock(
  ctx: AccountingContext,
  repo: BlockLifecycleRepository,
  block: LifecycleBlock,
  confirmations: number,
): Promise<void> {
  if (!(await repo.markImmature(block.id, confirmations))) return;
  ctx.metrics.inc('blocks_held_total');
  ctx.logger.warn(
    { coin: block.coin, height: block.height, hash: block.hash, confirmations },
    'reorg: confirmed block is below coinbase maturity again; its credits are held until it matures',
  );
  emitStatus(ctx, block, 'pending');
}

/** A held block (credits written earlier) that is mature again: confirmed, its credits payable. */
async function matureAgain(
  ctx: AccountingContext,
  repo: BlockLifecycleRepository,
  block: LifecycleBlock,
  confirmations: number,
): Promise<void> {
  if (!(await repo.markMatureAgain(block.id, confirmations))) return;
  ctx.logger.info(
    { coin: block.coin, height: block.height, hash: block.hash, confirmations },
    'held block is mature again; its credits are payable',
  );
  emitStatus(ctx, block, 'confirmed');
}

const returnedKey = (block: LifecycleBlock): string => blockReturnedKey(block.coin, block.id);

/**
 * An orphaned block that a later reorg put back on the main chain (the chain went back to the
 * branch holding it). Orphaned before maturity — the usual case, since its credits are written only
 * at maturity — it is pending again and credits when it matures, as if never orphaned. Orphaned
 * after its credits were written and reversed (a reorg deeper than coinbase maturity, then one
 * back), it is not re-credited automatically: the operator is alerted to decide, since its coins
 * may have been spent on the other branch (the alert clears if the block leaves the chain again),
 * and credits its payees back by hand (recredit-block.ts) if its coinbase is spendable again.
 */
async function returnedToChain(
  ctx: AccountingContext,
  repo: BlockLifecycleRepository,
  block: LifecycleBlock,
): Promise<void> {
  if (block.reversedAt !== null || block.credited) {
    await ctx.alarms.raise({
      key: returnedKey(block),
      kind: 'block-returned',
      coin: block.coin as CoinId,
      message: `${block.coin} block ${block.height} (${block.hash}) is back on the main chain after its credits were reversed; they are not re-credited automatically`,
    });
    return;
  }
  if (!(await repo.reinstate(block.id))) return;
  ctx.metrics.inc('blocks_reinstated_total');
  ctx.logger.warn(
    { coin: block.coin, height: block.height, hash: block.hash },
    'orphaned block is back on the main chain: pending again',
  );
  emitStatus(ctx, block, 'pending');
}

/**
 * One pass over a coin's tracked blocks: confirmations, maturity, orphans (reorgs), returns, in
 * slices of `accounting.sliceBlocks` blocks by (height, id) against one tip (slices.ts). Each
 * block's change is its own transaction, so a pass cut short resumes with nothing done twice.
 */
export async function trackBlocks(ctx: AccountingContext, coin: CoinId): Promise<void> {
  const chain = chainOf(ctx, coin);
  const maturity = coinbaseMaturityOf(coin);
  const limit = ctx.config.accounting.sliceBlocks;
  const repo = new BlockLifecycleRepository(ctx.db);
  const tip = await chain.getBlockCount();
  let after: { height: number; id: number } | null = null;
  await inSlices(ctx, async () => {
    const page = await repo.tracked(coin, tip - 2 * maturity, after, limit);
    for (const tracked of page) await trackBlock(ctx, repo, tracked, tip, maturity);
    const last = page[page.length - 1];
    if (last) after = { height: last.height, id: last.id };
    return page.length === limit;
  });
}

/** One tracked block against the chain at `tip`. */
async function trackBlock(
  ctx: AccountingContext,
  repo: BlockLifecycleRepository,
  tracked: LifecycleBlock,
  tip: number,
  maturity: number,
): Promise<void> {
  const onChain =
    tracked.height <= tip &&
    (await chainOf(ctx, tracked.coin as CoinId).holdsBlock(tracked.height, tracked.hash));
  if (tracked.status === 'orphaned') {
    if (onChain) await returnedToChain(ctx, repo, tracked);
    else if (tracked.reversedAt !== null) await ctx.alarms.clear([returnedKey(tracked)]);
    return;
  }
  const block =
    tracked.status === 'submitted' ? await settleSubmitted(ctx, repo, tracked, onChain, tip) : tracked;
  if (!block) return;
  if (!onChain) {
    await orphanBlock(ctx, block);
    return;
  }
  const confirmations = tip - block.height + 1;
  const mature = confirmations >= maturity;
  if (block.status === 'pending' && mature && block.credited) {
    await matureAgain(ctx, repo, block, confirmations);
  } else if (block.status === 'pending' && mature && block.plannedAt !== null) {
    await confirmBlock(ctx, block, confirmations);
  } else if (block.status === 'confirmed' && !mature) {
    await holdBlock(ctx, repo, block, confirmations);
  } else if (confirmations !== block.confirmations) {
    await repo.setConfirmations(block.id, confirmations);
  }
}

/**
 * A block submitted without a clear answer: pending once the main chain holds it, rejected once
 * the chain is SUBMITTED_GIVE_UP_DEPTH past its height without it, else left for the next pass.
 */
async function settleSubmitted(
  ctx: AccountingContext,
  repo: BlockLifecycleRepository,
  block: LifecycleBlock,
  onChain: boolean,
  tip: number,
): Promise<LifecycleBlock | undefined> {
  if (onChain) {
    if (await repo.promoteSubmitted(block.id)) {
      ctx.logger.info(
        { coin: block.coin, height: block.height, hash: block.hash },
        'submitted block is on the main chain: pending',
      );
      emitStatus(ctx, block, 'pending');
    }
    return { ...block, status: 'pending' };
  }
  if (tip >= block.height + SUBMITTED_GIVE_UP_DEPTH && (await repo.rejectSubmitted(block.id))) {
    ctx.logger.warn(
      { coin: block.coin, height: block.height, hash: block.hash },
      'submitted block never reached the main chain: rejected',
    );
  }
  return undefined;
}

/** Plans new blocks, then tracks all of them. */
export async function processBlocks(ctx: AccountingContext, coin: CoinId): Promise<void> {
  await planBlocks(ctx, coin);
  await trackBlocks(ctx, coin);
}
