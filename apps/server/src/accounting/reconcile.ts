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

/** The wallet transaction that carried this run: its comment, or exactly its outputs, unclaimed. */
function matchRun(run: PayoutRunRow, expected: ReadonlyMap<string, bigint>, candidates: readonly WalletTransaction[], claimed: ReadonlySet<string>) {
  const free = candidates.filter((tx) => !claimed.has(tx.txid) && tx.confirmations >= 0);
  return free.find((tx) => tx.comment === run.comment) ?? free.find((tx) => paysOutputs(expected, tx.outputs));
}

async function reconcileIntent(ctx: AccountingContext, coin: CoinId, chain: AccountingChain, run: PayoutRunRow): Promise<void> {
  const repo = new PayoutsRepository(ctx.db);
  const expected = outputsOf(await repo.payoutsOfRun(run.id));
  const candidates = await chain.findWalletTransactions(Math.floor(run.createdAt.getTime() / 1000) - LOOKBACK_SECONDS);
  const found = matchRun(run, expected, candidates, await repo.claimedTxids(coin));
  ctx.metrics.inc('payout_runs_reconciled_total');
  if (found) {
    const payouts = await ctx.db.transaction(async (tx) => {
      const r = new PayoutsRepository(tx);
      return (await r.markSent(run.id, found.txid)) ? r.payoutsOfRun(run.id) : [];
    });
    for (const p of payouts) ctx.events.emit('payout.sent', { coin, payeeId: p.payeeId, userId: p.userId, amount: p.amount, txid: found.txid });
    ctx.metrics.inc('payout_runs_sent_total');
    ctx.metrics.inc('payouts_sent_total', payouts.length);
    ctx.logger.warn({ coin, runId: run.id.toString(), txid: found.txid }, 'interrupted payout run found in the wallet: recorded as sent');
    return;
  }
  if (ctx.now().getTime() - run.createdAt.getTime() < ctx.intentGraceMs) {
    ctx.logger.warn({ coin, runId: run.id.toString() }, 'interrupted payout run not in the wallet yet: checked again next cycle');
    return;
  }
  await failRun(ctx, run.id, 'interrupted before sending: no wallet transaction carries this run');
  ctx.metrics.inc('payout_runs_failed_total');
  ctx.logger.warn({ coin, runId: run.id.toString() }, 'interrupted payout run never reached the wallet: debits reversed, paid by the next run');
}

async function trackSent(ctx: AccountingContext, chain: AccountingChain, run: PayoutRunRow): Promise<void> {
  if (!run.txid) return;
  const tx = await chain.getWalletTransaction(run.txid);
  const repo = new PayoutsRepository(ctx.db);
  if (!tx || tx.confirmations < 0) {
    ctx.metrics.inc('payout_transactions_conflicted_total');
    await ctx.alarms.raise({
      key: runKey('payout-missing', run.coin as CoinId, run.id),
      kind: 'payout-missing',
      coin: run.coin as CoinId,
      message: `${run.coin} payout run ${run.id} was sent as ${run.txid}, but the wallet no longer shows that transaction (or it conflicts): the payees' debits stand; check the transaction and pay or reverse by hand`,
    });
    return;
  }
  await repo.setConfirmations(run.id, tx.confirmations, tx.confirmations >= PAYOUT_CONFIRMATIONS);
}

/** Resolves every 'intent' run (found in the wallet -> sent; gone past the grace time -> failed). */
export async function reconcileIntents(ctx: AccountingContext, coin: CoinId): Promise<void> {
  const chain = chainOf(ctx, coin);
  for (const run of await new PayoutsRepository(ctx.db).runsWithStatus(coin, ['intent'])) await reconcileIntent(ctx, coin, chain, run);
}

/**
 * Follows every 'sent' run to 'recorded' (confirmed). A run the wallet cannot describe does not
 * stop the others; the first such error is thrown once all were tried (the cycle counts it).
 */
export async function trackSentRuns(ctx: AccountingContext, coin: CoinId): Promise<void> {
  const chain = chainOf(ctx, coin);
  let failure: unknown;
  for (const run of await new PayoutsRepository(ctx.db).runsWithStatus(coin, ['sent'])) {
    await trackSent(ctx, chain, run).catch((error: unknown) => (failure ??= error));
  }
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error('a sent payout run could not be followed');
}

/** Resolves every 'intent' run and follows 'sent' runs to 'recorded' (confirmed). */
export async function reconcilePayouts(ctx: AccountingContext, coin: CoinId): Promise<void> {
  await reconcileIntents(ctx, coin);
  await trackSentRuns(ctx, coin);
}
