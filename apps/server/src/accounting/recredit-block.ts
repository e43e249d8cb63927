// The operator's hand on a returned block (blocks.ts, returnedToChain): a block orphaned after its
// credits were written has them reversed (`reversal:block:<id>:<label>` entries); when a later
// reorg puts it back on the main chain, accounting does not write them again by itself (its coins
// may have been spent on the other branch) and opens a `block-returned` alert. Once the operator
// has checked that its coinbase is spendable again, this credits its payees back:
//   manjam block-recredit <block id>     (or the console's Alerts, Credit payees)
//
// What is written: for every reversal entry of the block, one entry giving the same payee exactly
// the amount reversed (integer base units), with the reason of the credit it reverses and the
// reference `recredit:<credit's reference>`. The block's row is locked (SELECT ... FOR UPDATE) for
// the whole transaction, and each reference is unique in the ledger, so two requests at once
// credit once: the second finds the block credited back and is refused.
//
// How it nets out if the chain moves again (the bookkeeping rule): a block credited back is
// `pending` with its credits written, the state of a confirmed block a reorg left below maturity
// (blocks.ts, holdBlock). So:
// - on the chain and mature, the next pass confirms it (matureAgain); below maturity its credits
//   are held (not payable) until it is; the automatic credit (confirmBlock) never runs for it, and
//   could not write twice anyway: its references `block:<id>:<label>` exist already;
// - if it leaves the chain again, the next pass orphans it and reverses every credit of the block
//   not reversed yet: the re-credit (`reversal:recredit:block:...`); the first reversals exist and
//   are skipped. The block then nets to zero again, as any orphaned block does;
// - at most once per block: a block credited back once is refused a second time
//   (`already-recredited`), also if it is orphaned and returned again; that rare case (three reorgs
//   deeper than coinbase maturity) is left to the operator's judgement.
// Only a block that is orphaned, had its credits reversed and whose `block-returned` alert is open
// (accounting saw it back on the main chain on its last pass) is taken; the alert is cleared in
// the same transaction.
// The console (services/operator) credits back through this same function: what the CLI refuses,
// the console refuses, with the refusal's `reason` mapped to an HTTP answer.
import type { Database } from '../db/index.js';
import { BlockLifecycleRepository } from '../db/repositories/block-lifecycle.js';
import { LedgerRepository, type LedgerEntryInput } from '../db/repositories/ledger.js';
import { OperatorAlertsRepository } from '../db/repositories/operator-alerts.js';
import type { Logger } from '../logger.js';

export const RECREDIT_REFUSALS = ['unknown-block', 'not-returned', 'already-recredited'] as const;
export type RecreditRefusal = (typeof RECREDIT_REFUSALS)[number];

/** A refusal the operator can act on (unknown block, block not returned, already credited back). */
export class RecreditBlockError extends Error {
  override name = 'RecreditBlockError';

  constructor(
    readonly reason: RecreditRefusal,
    message: string,
  ) {
    super(message);
  }
}

export interface RecreditedBlock {
  blockId: number;
  coin: string;
  height: number;
  hash: string;
  /** How many payees were credited back (the pool's own fee payee among them, when it had a share). */
  payees: number;
  /** Base units credited back: the sum of the block's reversals, negated. */
  total: bigint;
}

/** The alert accounting opens for a reversed block back on the main chain (blocks.ts). */
export const blockReturnedKey = (coin: string, blockId: number): string =>
  `block-returned:${coin}:${blockId}`;

/** The block id of a `block-returned` alert's key, or null for any other key. */
export function blockIdOfReturnedKey(key: string): number | null {
  const match = /^block-returned:[^:]+:([1-9]\d*)$/.exec(key);
  return match?.[1] === undefined ? null : Number(match[1]);
}

const RECREDIT = 'recredit:';
const REVERSAL = 'reversal:';

export async function recreditBlock(
  db: Database,
  logger: Logger,
  blockId: number,
  /** Who credited it back, for the log line: 'cli', or the console's operator (`operator:<user id>@<address>`). */
  by = 'cli',
): Promise<RecreditedBlock> {
  const done = await db.transaction(async (tx) => {
    const blocks = new BlockLifecycleRepository(tx);
    const block = await blocks.lock(blockId);
    if (!block) throw new RecreditBlockError('unknown-block', `there is no block ${blockId}`);
    const label = `${block.coin} block ${block.height} (id ${block.id})`;
    const ledger = new LedgerRepository(tx);
    const entries = await ledger.entriesForBlock(block.id);
    if (entries.some((e) => e.reference.startsWith(RECREDIT)))
      throw new RecreditBlockError(
        'already-recredited',
        `${label} was credited back once already: nothing was changed`,
      );
    const key = blockReturnedKey(block.coin, block.id);
    const alerts = new OperatorAlertsRepository(tx);
    if (block.status !== 'orphaned' || block.reversedAt === null || !(await alerts.isOpen(key)))
      throw new RecreditBlockError(
        'not-returned',
        `${label} is '${block.status}': only an orphaned block whose credits were reversed and that is back on the main chain (its block-returned alert open) is credited back by hand`,
      );
    const credits = new Map(entries.map((e) => [e.reference, e]));
    const recredits: LedgerEntryInput[] = entries
      .filter((e) => e.reason === 'reversal' && e.reference.startsWith(`${REVERSAL}block:`))
      .map((reversal) => {
        const creditRef = reversal.reference.slice(REVERSAL.length);
        const credit = credits.get(creditRef);
        if (!credit) throw new Error(`reversal ${reversal.reference} has no credit ${creditRef}`);
        return {
          payeeId: reversal.payeeId,
          coin: reversal.coin,
          amount: -reversal.amount,
          reason: credit.reason,
          reference: `${RECREDIT}${creditRef}`,
          blockId: block.id,
        };
      });
    if (!(await blocks.markRecredited(block.id)))
      throw new RecreditBlockError('not-returned', `${label} is no longer orphaned: nothing was changed`);
    const written = await ledger.append(recredits);
    await alerts.clear([key]);
    return {
      blockId: block.id,
      coin: block.coin,
      height: block.height,
      hash: block.hash,
      payees: new Set(written.map((e) => e.payeeId)).size,
      total: written.reduce((sum, e) => sum + e.amount, 0n),
    };
  });
  logger.warn(
    {
      coin: done.coin,
      height: done.height,
      hash: done.hash,
      blockId: done.blockId,
      payees: done.payees,
      total: done.total.toString(),
      by,
    },
    'returned block credited back by the operator: pending until mature',
  );
  return done;
}
