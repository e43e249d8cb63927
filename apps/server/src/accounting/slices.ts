// Bounded slices: every accounting step that can face a backlog (shares to credit, blocks to plan
// or to track) works through it a slice at a time — at most `accounting.sliceShares` share rows or
// `accounting.sliceBlocks` blocks per slice — and yields between slices, looping until caught up.
//
// WHY: the embedded database (PGlite on its own thread) has ONE connection; a statement or a
// transaction holds every other query, /api/health's included. Before slices, a regtest backlog of
// 31,192 found blocks kept one cycle busy for over 15 minutes while the API stopped answering. Now
// an API query waits behind at most one slice's statement or transaction.
//
// PROGRESS RULE: a slice records how far it got in the rows it changes, inside its own transaction
// (shares.credited with their ledger entries; blocks.planned_at with the block's plan rows;
// blocks.status with its credits). A process killed between slices (or stopped: `stopping`) loses
// nothing and does nothing twice: the next cycle starts from the first row not yet done.
import type { AccountingContext } from './context.js';

/** Lets the event loop run (HTTP requests queue their queries) before the next slice starts. */
export function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `slice` until it says it is caught up (it returns false: it found less than a full slice),
 * or until accounting is stopping; yields between slices. Returns the number of slices run.
 */
export async function inSlices(ctx: AccountingContext, slice: () => Promise<boolean>): Promise<number> {
  let slices = 0;
  for (;;) {
    const more = await slice();
    slices++;
    ctx.metrics.inc('slices_total');
    if (!more || ctx.stopping()) return slices;
    await yieldToOthers();
  }
}
