// Payout runs: every balance at or above its owner's threshold, paid with ONE sendmany (a wallet
// that limits its outputs per transaction, as Monero's does, pays the largest balances first and
// the rest in follow-up runs once it can fund them: payout-plan's limitToOutputs, runFollowUp).
//
// CRASH SAFETY. (1) In one transaction: the run ('intent', with a unique comment), its payouts
// ('pending') and the debit ledger entries. (2) sendmany with that comment. (3) In one
// transaction: run and payouts 'sent' with the txid. A crash between (2) and (3) leaves an
// 'intent' run; on restart (and before every run) reconcile() looks in the wallet for a
// transaction carrying the run's comment or paying exactly its outputs, not claimed by another
// run: found -> 'sent' with that txid; not found, and older than a grace period (5 min: a node
// may still be working on a sendmany whose answer was lost) -> nothing was sent, the run is
// 'failed' and its debits are reversed (the balances are paid by the next run). A node that REFUSES the sendmany
// (an RPC error: e.g. insufficient funds) also fails the run and reverses its debits at once,
// unless the node's pool holds a transfer of the wallet that the wallet does not know (Monero: its
// wallet can refuse after the transfer reached monerod, e.g. when monerod's answer was lost;
// reconcile.ts, mayHaveSentUntold); a sendmany whose outcome is unknown (timeout, connection
// lost) stays 'intent' for reconcile.
// So a balance is never paid twice and never dropped. One accounting process pays a coin.
import { randomUUID } from 'node:crypto';
import { formatCoinAmount } from '@manjam/protocol';
import type { CoinId } from '../config/constants.js';
import { payoutThresholdBounds } from '../config/payout-thresholds.js';
import { LedgerRepository, type LedgerEntryInput } from '../db/repositories/ledger.js';
import type { Queryable } from '../db/index.js';
import { PayoutsRepository } from '../db/repositories/payouts.js';
import { isInsufficientFunds, isNodeRejection } from './chain.js';
import { chainOf, type AccountingContext } from './context.js';
import { limitToOutputs, outputsOf, planPayouts, type PlannedPayout } from './payout-plan.js';
import { mayHaveSentUntold, reconcileIntents, trackSentRuns } from './reconcile.js';
import { failRun } from './payout-ledger.js';

export const PAYOUT_RUN_RESULTS = [
  'sent',
  'nothing-to-pay',
  'insufficient-funds',
  'failed',
  'unknown-outcome',
] as const;
export type PayoutRunOutcome = (typeof PAYOUT_RUN_RESULTS)[number];

export interface PayoutRunResult {
  coin: CoinId;
  status: PayoutRunOutcome;
  runId: bigint | null;
  txid: string | null;
  comment: string | null;
  payouts: PlannedPayout[];
  total: bigint;
  /** Payees above their threshold left for a follow-up run (one transaction's output limit). */
  deferred: number;
  error?: string;
}

/** The open alert while a coin's wallet cannot fund its payout run (cleared by the next run sent). */
export const walletAlertKey = (coin: CoinId): string => `wallet-insufficient:${coin}`;

/** The next run's payees (at most what one wallet transaction pays) and those left for later. */
async function planRun(
  ctx: AccountingContext,
  coin: CoinId,
  db: Queryable,
  log: boolean,
): Promise<{ payouts: PlannedPayout[]; deferred: PlannedPayout[] }> {
  const plan = planPayouts(
    await new PayoutsRepository(db).payableBalances(coin),
    { coin, network: ctx.config.chains[coin].network },
    payoutThresholdBounds(ctx.config.accounting.payoutThresholds, coin).default,
    ctx.now(),
  );
  if (!log) return limitToOutputs(plan.payouts, chainOf(ctx, coin));
  const skipped = plan.skipped.filter((s) => s.reason !== 'below-threshold');
  ctx.metrics.inc('payouts_skipped_invalid_address_total', skipped.length);
  // Logged once per payee while it lasts (skip-notices.ts), not on every cycle.
  for (const skip of ctx.skipNotices.fresh(coin, skipped)) {
    ctx.logger.warn(
      { coin, ...skip, amount: skip.amount.toString() },
      'balance above threshold not paid: no valid payout address',
    );
  }
  return limitToOutputs(plan.payouts, chainOf(ctx, coin));
}

/** Step 1: the intent (run, payouts, debits) in one transaction. */
async function recordIntent(
  ctx: AccountingContext,
  coin: CoinId,
): Promise<{ runId: bigint; comment: string; payouts: PlannedPayout[]; deferred: number } | null> {
  return ctx.db.transaction(async (tx) => {
    const repo = new PayoutsRepository(tx);
    const { payouts, deferred } = await planRun(ctx, coin, tx, true);
    if (deferred.length > 0)
      ctx.logger.info(
        { coin, paid: payouts.length, deferred: deferred.length },
        'more payees than one wallet transaction can pay: the rest are paid by follow-up runs once the wallet can fund them',
      );
    if (payouts.length === 0) return null;
    const comment = `manjam-payout:${coin}:${randomUUID()}`;
    const runId = await repo.createRun(coin, comment, deferred.length);
    const debits: LedgerEntryInput[] = [];
    for (const payout of payouts) {
      const payoutId = await repo.addPayout(runId, payout.payeeId, coin, payout.address, payout.amount);
      debits.push({
        payeeId: payout.payeeId,
        coin,
        amount: -payout.amount,
        reason: 'payout',
        reference: `payout:${payoutId}`,
        payoutId,
      });
    }
    await new LedgerRepository(tx).append(debits);
    return { runId, comment, payouts, deferred: deferred.length };
  });
}

async function markRunSent(ctx: AccountingContext, coin: CoinId, runId: bigint, txid: string): Promise<void> {
  const payouts = await ctx.db.transaction(async (tx) => {
    const repo = new PayoutsRepository(tx);
    return (await repo.markSent(runId, txid)) ? repo.payoutsOfRun(runId) : [];
  });
  for (const p of payouts) {
    ctx.events.emit('payout.sent', { coin, payeeId: p.payeeId, userId: p.userId, amount: p.amount, txid });
  }
  ctx.metrics.inc('payout_runs_sent_total');
  ctx.metrics.inc('payouts_sent_total', payouts.length);
  ctx.metrics.inc(
    'payout_base_units_sent',
    payouts.reduce((sum, p) => sum + p.amount, 0n),
  );
}

/**
 * One payout run for a coin. Interrupted runs are resolved first (their debits must be settled
 * before balances are read); sent runs are followed by every cycle and do not hold this run up.
 */
export async function runPayoutsForCoin(ctx: AccountingContext, coin: CoinId): Promise<PayoutRunResult> {
  await reconcileIntents(ctx, coin);
  await trackSentRuns(ctx, coin).catch((err: unknown) =>
    ctx.logger.error({ coin, err }, 'sent payout runs could not be followed this time; this run goes on'),
  );
  const intent = await recordIntent(ctx, coin);
  const empty = { coin, runId: null, txid: null, comment: null, payouts: [], total: 0n, deferred: 0 };
  if (!intent) return { ...empty, status: 'nothing-to-pay' };
  ctx.metrics.inc('payout_runs_total');
  const outputs = outputsOf(intent.payouts);
  const total = [...outputs.values()].reduce((a, b) => a + b, 0n);
  const base = {
    coin,
    runId: intent.runId,
    comment: intent.comment,
    payouts: intent.payouts,
    total,
    deferred: intent.deferred,
  };
  const chain = chainOf(ctx, coin);
  let txid: string;
  try {
    const balance = await chain.getWalletBalance();
    if (balance < total)
      throw Object.assign(new Error(`Insufficient funds: wallet holds ${formatCoinAmount(balance, coin)}`), {
        kind: 'rpc',
        code: -6,
      });
    txid = await chain.sendMany(outputs, intent.comment);
  } catch (error) {
    return handleSendError(ctx, base, error);
  }
  await markRunSent(ctx, coin, intent.runId, txid);
  await ctx.alarms.clear([walletAlertKey(coin)]);
  ctx.logger.info(
    {
      coin,
      runId: intent.runId.toString(),
      txid,
      payees: intent.payouts.length,
      total: formatCoinAmount(total, coin),
    },
    'payout run sent',
  );
  return { ...base, status: 'sent', txid };
}

async function handleSendError(
  ctx: AccountingContext,
  base: Omit<PayoutRunResult, 'status' | 'txid'>,
  error: unknown,
): Promise<PayoutRunResult> {
  const message = error instanceof Error ? error.message : String(error);
  const runId = base.runId ?? 0n;
  const log = {
    coin: base.coin,
    runId: runId.toString(),
    total: formatCoinAmount(base.total, base.coin),
    error: message,
  };
  const rejected = isNodeRejection(error);
  if (!rejected || (!isInsufficientFunds(error) && (await mayHaveSentUntold(chainOf(ctx, base.coin))))) {
    ctx.metrics.inc('payout_runs_unknown_outcome_total');
    ctx.logger.error(
      log,
      rejected
        ? "payout run refused by the wallet, but the node's pool holds a transfer of the wallet it does not know: left as intent, reconciled before the next run"
        : 'payout run outcome unknown (no answer from the wallet): left as intent, reconciled before the next run',
    );
    return { ...base, status: 'unknown-outcome', txid: null, error: message };
  }
  const short = isInsufficientFunds(error);
  await failRun(ctx.db, runId, short ? 'wallet-short' : 'wallet-refused', message);
  if (short) {
    ctx.metrics.inc('payout_insufficient_funds_total');
    ctx.logger.warn(log, 'payout run stopped: the pool wallet has not enough funds; balances are kept');
    await ctx.alarms.raise({
      key: walletAlertKey(base.coin),
      kind: 'wallet-insufficient',
      coin: base.coin,
      message: `${base.coin} payout run stopped: the pool wallet cannot fund ${formatCoinAmount(base.total, base.coin)} (${message}); balances are kept and paid by the first run the wallet can fund`,
    });
    return { ...base, status: 'insufficient-funds', txid: null, error: message };
  }
  ctx.metrics.inc('payout_runs_failed_total');
  ctx.logger.error(log, 'payout run refused by the wallet; balances are kept');
  return { ...base, status: 'failed', txid: null, error: message };
}

/**
 * FOLLOW-UP RUNS. A run cut to one transaction's outputs (Monero: 15 destinations) leaves payees
 * for later; they are paid by follow-up runs as soon as the wallet can fund them, not a whole
 * payout interval later. Decision: a follow-up runs only when (1) no run of the coin is 'intent'
 * (an unresolved run's debits must be settled first; reconcile handles any number of 'sent' runs,
 * each matched to its own txid), and (2) the wallet's spendable balance covers the next run's
 * total, checked before any intent is written: the change of the last transfer (Monero: locked
 * 10 blocks) is waited for quietly, with no failed run and no wallet alert. Resolves whether a
 * run was made; `pending` tells the caller whether payees are still left for a follow-up.
 */
export async function runFollowUp(
  ctx: AccountingContext,
  coin: CoinId,
): Promise<{ result: PayoutRunResult | undefined; pending: boolean }> {
  const repo = new PayoutsRepository(ctx.db);
  if ((await repo.runsWithStatus(coin, ['intent'])).length > 0) return { result: undefined, pending: true };
  const { payouts } = await planRun(ctx, coin, ctx.db, false);
  if (payouts.length === 0) return { result: undefined, pending: false };
  const total = payouts.reduce((sum, p) => sum + p.amount, 0n);
  if ((await chainOf(ctx, coin).getWalletBalance()) < total) return { result: undefined, pending: true };
  const result = await runPayoutsForCoin(ctx, coin);
  return { result, pending: result.deferred > 0 || result.status === 'unknown-outcome' };
}
