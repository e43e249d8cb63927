// Reconciling payout runs with the wallet: intents left by a crash, and confirmations of sent runs.
import type { CoinId } from '../config/constants.js';
import { PayoutsRepository, type PayoutRunRow } from '../db/repositories/payouts.js';
import type { AccountingChain, WalletTransaction } from './chain.js';
import { chainOf, type AccountingContext } from './context.js';
import { runKey } from './operator-alerts.js';
import { failRun } from './payout-ledger.js';
import { outputsOf, paysOutputs } from './payout-plan.js';

/** A sent payout counts as confirmed at this depth. */
export const PAYOUT_CONFIRMATIONS = 1;
/** Wallet transactions seen this long before a run was recorded are still candidates (clock skew). */
const LOOKBACK_SECONDS = 600;

/**
 * The wallet transaction that carried this run: its comment, or exactly its outputs, unclaimed;
 * else one the wallet sent without knowing to whom (`untold`) whose amount is the run's total.
 * `untold` lists the other such transactions, which the run cannot be told apart from.
 */
function matchRun(
  run: PayoutRunRow,
  expected: ReadonlyMap<string, bigint>,
  candidates: readonly WalletTransaction[],
  claimed: ReadonlySet<string>,
): { found: WalletTransaction | undefined; untold: WalletTransaction[] } {
  const free = candidates.filter((tx) => !claimed.has(tx.txid) && tx.confirmations >= 0);
  const total = [...expected.values()].reduce((a, b) => a + b, 0n);
  const untold = free.filter((tx) => tx.untold !== undefined);
  const found =
    free.find((tx) => tx.comment === run.comment) ??
    free.find((tx) => paysOutputs(expected, tx.outputs)) ??
    untold.find((tx) => tx.untold?.amount === total);
  return { found, untold };
}

async function recordFound(
  ctx: AccountingContext,
  coin: CoinId,
  run: PayoutRunRow,
  found: WalletTransaction,
): Promise<void> {
  const payouts = await ctx.db.transaction(async (tx) => {
    const r = new PayoutsRepository(tx);
    return (await r.markSent(run.id, found.txid)) ? r.payoutsOfRun(run.id) : [];
  });
  for (const p of payouts)
    ctx.events.emit('payout.sent', {
      coin,
      payeeId: p.payeeId,
      userId: p.userId,
      amount: p.amount,
      txid: found.txid,
    });
  ctx.metrics.inc('payout_runs_sent_total');
  ctx.metrics.inc('payouts_sent_total', payouts.length);
  ctx.logger.warn(
    { coin, runId: run.id.toString(), txid: found.txid, byAmount: found.untold !== undefined },
    'interrupted payout run found in the wallet: recorded as sent',
  );
}

/**
 * THE DOUBLE-PAYMENT WINDOW. A wallet that lost its record of a transfer (monero-wallet-rpc killed
 * between `transfer` and `store`, with the payout process) does not know that transfer at all while
 * it is only in monerod's pool, and learns it back from the chain once it is mined, without its
 * destinations and note. A run failed meanwhile would have its debits reversed and be paid again by
 * the next run, while the first transfer still gets mined. Decisions:
 * - Mined: such a transfer whose amount is the run's total, to the atomic unit, IS the run (recorded
 *   as sent, like a match by outputs: the wallet spent exactly that after the intent was written,
 *   and nothing else pays that). Any other unexplained outgoing transfer since the intent means the
 *   run may have gone out: the run is HELD (never failed) and a payout-missing alert asks the
 *   operator to settle it (`manjam payout-run`, settle-run.ts; docs/OPERATIONS.md).
 * - In the pool: before a run is judged not sent, the chain is asked for pool transactions that
 *   spend the wallet's coins and that the wallet does not know (`untoldPoolSpends`, by key images:
 *   coins/monero/wallet.ts; Bitcoin-family wallets record a transaction before broadcasting it and do not
 *   answer). One exists: the run is HELD at once, its alert naming the transactions and saying it
 *   waits for them to be mined; once mined, the path above takes over (recorded by its amount, the
 *   alert cleared when it confirms; or still held). The grace period alone (intentGraceMs, 5 min)
 *   did not cover a transfer stuck in the pool longer (busy pool, low fee).
 * - A held run stays held: an 'intent' run with an open payout-missing alert is never failed here,
 *   even when what it waited for is no longer seen (a transfer that left monerod's pool unmined may
 *   still be held and mined by other nodes; an untold transfer may have been claimed by another
 *   run). Only its transaction found (recorded as sent) or the operator's settlement ends it.
 * So a run is failed only when, past the grace, the wallet shows no transfer that can be it,
 * monerod's pool holds none the wallet does not know, and the run was never held. The price: a run
 * held for another run's transfer (two runs interrupted together) waits for the operator; never a
 * double payment, never a lost balance (a held run's debits stand until it is settled).
 */
async function holdRun(
  ctx: AccountingContext,
  coin: CoinId,
  run: PayoutRunRow,
  why: { inPool: boolean; txids: readonly string[] },
): Promise<void> {
  const txids = why.txids.join(', ');
  const settle = `check whether its payees were paid, then settle it: manjam payout-run ${run.id} sent <txid> | failed`;
  const message = why.inPool
    ? `${coin} payout run ${run.id} was interrupted and the node's pool holds transactions spending the pool wallet's coins that the wallet no longer knows (${txids}): the run is held, neither sent nor failed, waiting for them to be mined; then a transfer of exactly the run's total is recorded as sent by itself (this alert clears once it confirms); otherwise ${settle}`
    : `${coin} payout run ${run.id} was interrupted and the wallet shows outgoing transfers it no longer knows the destinations of (${txids}) that do not add up to the run's total: the run is held, neither sent nor failed; ${settle}`;
  await ctx.alarms.raise({
    key: runKey('payout-missing', coin, run.id),
    kind: 'payout-missing',
    coin,
    message,
  });
  ctx.logger.error(
    { coin, runId: run.id.toString(), txids, inPool: why.inPool },
    why.inPool
      ? "interrupted payout run held: the node's pool holds transfers of the wallet it no longer knows"
      : 'interrupted payout run held: the wallet shows outgoing transfers it cannot describe',
  );
}

async function reconcileIntent(
  ctx: AccountingContext,
  coin: CoinId,
  chain: AccountingChain,
  run: PayoutRunRow,
): Promise<void> {
  const repo = new PayoutsRepository(ctx.db);
  const expected = outputsOf(await repo.payoutsOfRun(run.id));
  const candidates = await chain.findWalletTransactions(
    Math.floor(run.createdAt.getTime() / 1000) - LOOKBACK_SECONDS,
  );
  const { found, untold } = matchRun(run, expected, candidates, await repo.claimedTxids(coin));
  ctx.metrics.inc('payout_runs_reconciled_total');
  if (found) return recordFound(ctx, coin, run, found);
  if (untold.length > 0)
    return holdRun(ctx, coin, run, { inPool: false, txids: untold.map((tx) => tx.txid) });
  const inPool = (await chain.untoldPoolSpends?.()) ?? [];
  if (inPool.length > 0) return holdRun(ctx, coin, run, { inPool: true, txids: inPool });
  if (await ctx.alarms.isOpen(runKey('payout-missing', coin, run.id))) {
    ctx.logger.error(
      { coin, runId: run.id.toString() },
      'held payout run: what it waited for is no longer seen; it stays held until the operator settles it',
    );
    return;
  }
  if (ctx.now().getTime() - run.createdAt.getTime() < ctx.intentGraceMs) {
    ctx.logger.warn(
      { coin, runId: run.id.toString() },
      'interrupted payout run not in the wallet yet: checked again next cycle',
    );
    return;
  }
  await failRun(
    ctx.db,
    run.id,
    'not-sent',
    'interrupted before sending: no wallet transaction carries this run',
  );
  ctx.metrics.inc('payout_runs_failed_total');
  ctx.logger.warn(
    { coin, runId: run.id.toString() },
    'interrupted payout run never reached the wallet: debits reversed, paid by the next run',
  );
}

/**
 * Whether the wallet's coins may be on their way in a transfer it does not know (`untoldPoolSpends`
 * found one, or could not answer): a refusal of the wallet is then no proof that nothing was sent.
 */
export async function mayHaveSentUntold(chain: AccountingChain): Promise<boolean> {
  if (!chain.untoldPoolSpends) return false;
  return chain.untoldPoolSpends().then(
    (txids) => txids.length > 0,
    () => true,
  );
}

/** Recorded (confirmed) runs this recent are re-checked every cycle: a deep reorg can un-confirm them. */
const RECHECK_RECORDED_MS = 24 * 3_600_000;

/**
 * Follows a run's transaction in the wallet: a sent run is recorded once confirmed; a sent or
 * recently recorded run whose transaction the wallet no longer shows, that conflicts, or (recorded)
 * that a reorg took out of the chain opens a payout-missing alert, cleared once it is confirmed again.
 */
async function trackSent(ctx: AccountingContext, chain: AccountingChain, run: PayoutRunRow): Promise<void> {
  if (!run.txid) return;
  const tx = await chain.getWalletTransaction(run.txid);
  const coin = run.coin as CoinId;
  const key = runKey('payout-missing', coin, run.id);
  const unconfirmedAgain = run.status === 'recorded' && tx !== undefined && tx.confirmations === 0;
  if (!tx || tx.confirmations < 0 || unconfirmedAgain) {
    if (!unconfirmedAgain) ctx.metrics.inc('payout_transactions_conflicted_total');
    const what = unconfirmedAgain
      ? 'is no longer confirmed: a reorg took it out of the chain (the wallet rebroadcasts it once its lock time allows; see the runbook)'
      : 'is no longer shown by the wallet, or conflicts: check whether the coins went out; pay or reverse by hand';
    await ctx.alarms.raise({
      key,
      kind: 'payout-missing',
      coin,
      message: `${coin} payout run ${run.id} (txid ${run.txid}) ${what}; the payees' debits stand`,
    });
    return;
  }
  if (tx.confirmations >= PAYOUT_CONFIRMATIONS) await ctx.alarms.clear([key]);
  if (run.status === 'sent') {
    await new PayoutsRepository(ctx.db).setConfirmations(
      run.id,
      tx.confirmations,
      tx.confirmations >= PAYOUT_CONFIRMATIONS,
    );
  }
}

/**
 * Resolves every 'intent' run: found in the wallet -> sent; a transfer it may be -> held; none, never
 * held, past the grace time -> failed.
 */
export async function reconcileIntents(ctx: AccountingContext, coin: CoinId): Promise<void> {
  const chain = chainOf(ctx, coin);
  for (const run of await new PayoutsRepository(ctx.db).runsWithStatus(coin, ['intent']))
    await reconcileIntent(ctx, coin, chain, run);
}

/**
 * Follows every 'sent' run to 'recorded' (confirmed), and re-checks runs recorded in the last day.
 * A run the wallet cannot describe does not stop the others; the first such error is thrown once
 * all were tried (the cycle counts it).
 */
export async function trackSentRuns(ctx: AccountingContext, coin: CoinId): Promise<void> {
  const chain = chainOf(ctx, coin);
  let failure: unknown;
  const repo = new PayoutsRepository(ctx.db);
  const recent = await repo.runsSince(
    coin,
    ['recorded'],
    new Date(ctx.now().getTime() - RECHECK_RECORDED_MS),
  );
  for (const run of [...(await repo.runsWithStatus(coin, ['sent'])), ...recent]) {
    await trackSent(ctx, chain, run).catch((error: unknown) => (failure ??= error));
  }
  if (failure !== undefined)
    throw failure instanceof Error ? failure : new Error('a sent payout run could not be followed');
}

/** Resolves every 'intent' run and follows 'sent' runs to 'recorded' (confirmed). */
export async function reconcilePayouts(ctx: AccountingContext, coin: CoinId): Promise<void> {
  await reconcileIntents(ctx, coin);
  await trackSentRuns(ctx, coin);
}
