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
 * between `transfer` and `store`, with the payout process) learns it back from the chain without
 * its destinations and note. Decision: such a transfer whose amount is the run's total, to the
 * atomic unit, IS the run (recorded as sent, like a match by outputs: the wallet spent exactly
 * that after the intent was written, and nothing else pays that). Any other unexplained outgoing
 * transfer since the intent means the run may have gone out: the run is HELD (never failed: a
 * failed run's debits are reversed and paid again) and a payout-missing alert asks the operator
 * to settle it (`manjam payout-run`, settle-run.ts; README runbook). A transfer still in the mempool is not known to a wallet
 * that lost its record; the grace period (intentGraceMs, 5 min, over two Monero blocks) covers it.
 */
async function holdRun(
  ctx: AccountingContext,
  coin: CoinId,
  run: PayoutRunRow,
  untold: readonly WalletTransaction[],
): Promise<void> {
  const txids = untold.map((tx) => tx.txid).join(', ');
  await ctx.alarms.raise({
    key: runKey('payout-missing', coin, run.id),
    kind: 'payout-missing',
    coin,
    message: `${coin} payout run ${run.id} was interrupted and the wallet shows outgoing transfers it no longer knows the destinations of (${txids}) that do not add up to the run's total: the run is held, neither sent nor failed; check whether its payees were paid, then settle it: manjam payout-run ${run.id} sent <txid> | failed`,
  });
  ctx.logger.error(
    { coin, runId: run.id.toString(), txids },
    'interrupted payout run held: the wallet shows outgoing transfers it cannot describe',
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
  if (untold.length > 0) return holdRun(ctx, coin, run, untold);
  if (ctx.now().getTime() - run.createdAt.getTime() < ctx.intentGraceMs) {
    ctx.logger.warn(
      { coin, runId: run.id.toString() },
      'interrupted payout run not in the wallet yet: checked again next cycle',
    );
    return;
  }
  await failRun(ctx.db, run.id, 'interrupted before sending: no wallet transaction carries this run');
  ctx.metrics.inc('payout_runs_failed_total');
  ctx.logger.warn(
    { coin, runId: run.id.toString() },
    'interrupted payout run never reached the wallet: debits reversed, paid by the next run',
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

/** Resolves every 'intent' run (found in the wallet -> sent; gone past the grace time -> failed). */
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
