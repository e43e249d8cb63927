// Accounting: shares and found blocks -> ledger credits -> daily settlements -> on-chain payouts.
// One serial loop: credits, block lifecycle and settlement every cycle; payouts per coin every
// payoutIntervalHours (counted from the last run in the database, so restarts keep the rhythm).
// Nothing overlaps, and no error escapes as an unhandled rejection.
import type { Config } from '../config/index.js';
import type { CoinId } from '../config/constants.js';
import type { Database } from '../db/index.js';
import { BalancesRepository, type BalanceMismatch } from '../db/repositories/balances.js';
import { PayoutsRepository } from '../db/repositories/payouts.js';
import type { PoolEvents } from '../events.js';
import type { Logger } from '../logger.js';
import { processBlocks } from './blocks.js';
import type { AccountingChain } from './chain.js';
import type { AccountingContext } from './context.js';
import { creditAndRecord } from './credits.js';
import { AccountingMetrics } from './metrics.js';
import { OperatorAlarms, type OperatorNotifier } from './operator-alerts.js';
import { runFollowUp, runPayoutsForCoin, type PayoutRunResult } from './payouts.js';
import { reconcilePayouts } from './reconcile.js';
import { settleDays } from './settlement.js';
import { SkipNotices } from './skip-notices.js';
import { WalletBalances } from './wallet-balance.js';

export type { AccountingChain, WalletTransaction, WalletOutput } from './chain.js';
export { isInsufficientFunds, isNodeRejection } from './chain.js';
export type { PayoutRunResult, PayoutRunOutcome } from './payouts.js';
export { ACCOUNTING_COUNTERS, type AccountingCounter } from './metrics.js';

export interface AccountingDeps {
  config: Config;
  db: Database;
  logger: Logger;
  events: PoolEvents;
  /** Each coin's node and wallet, as its family gives them (coins/<family>/wallet.ts). */
  chains: Map<CoinId, AccountingChain>;
  /**
   * Coins mined here without an AccountingChain (a family whose wallet is not configured, e.g. XMR
   * without `chains.XMR.walletRpcUrl`): their shares are credited and their days settled, while
   * their blocks and payouts wait for the chain.
   */
  creditOnlyCoins?: readonly CoinId[];
  /**
   * Cycle period for credits, blocks and settlement (default config.accounting.cycleSeconds); a
   * backlog is worked in slices (slices.ts).
   */
  cycleMs?: number;
  /** false: no timer, only explicit runOnce/runPayouts calls (tests, operator tools). */
  loop?: boolean;
  now?: () => Date;
  /**
   * An interrupted payout run that the wallet does not show is declared unsent (and its debits
   * reversed) only once it is this old: a node can still be working on a sendmany whose answer
   * was lost. Default 5 minutes.
   */
  intentGraceMs?: number;
  /** Delivers operator alerts (email); absent: alerts are logged and shown on health and /metrics only. */
  notifyOperator?: OperatorNotifier;
}

export interface AccountingService {
  /** Credits shares, tracks blocks (plan, confirm, orphan), settles closed days, for every coin. */
  runOnce(): Promise<void>;
  /** A payout run now, for one coin or every coin (operators, tests). */
  runPayouts(coin?: CoinId): Promise<PayoutRunResult[]>;
  /** Cached balances that differ from the ledger (empty when sound); also sets `balance_mismatches`. */
  checkBalances(): Promise<BalanceMismatch[]>;
  metrics(): Record<string, number>;
  stop(): Promise<void>;
}

const BALANCE_CHECK_EVERY_CYCLES = 360;
export const DEFAULT_INTENT_GRACE_MS = 5 * 60_000;

export async function startAccounting(deps: AccountingDeps): Promise<AccountingService> {
  const logger = deps.logger.child({ module: 'accounting' });
  const metrics = new AccountingMetrics();
  const chains = deps.chains;

  const alarms = new OperatorAlarms(deps.db, logger, deps.notifyOperator);
  // stop() ends a cycle at its next slice boundary (slices.ts), not after the whole backlog.
  let stopped = false;
  const ctx: AccountingContext = {
    ...deps,
    chains,
    logger,
    metrics,
    alarms,
    skipNotices: new SkipNotices(),
    now: deps.now ?? (() => new Date()),
    intentGraceMs: deps.intentGraceMs ?? DEFAULT_INTENT_GRACE_MS,
    stopping: () => stopped,
  };
  const walletBalances = new WalletBalances(ctx);
  const { stuckPayoutMinutes, alertAfterFailedCycles } = deps.config.accounting;
  const coins = [...deps.chains.keys()].filter((coin) => deps.config.chains[coin].enabled);
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };
  // Consecutive failures of one step for one coin; at alertAfterFailedCycles an operator alert opens,
  // and the step's first success clears it.
  const failures = new Map<string, number>();
  const guarded = async (what: string, coin: CoinId, fn: () => Promise<unknown>): Promise<void> => {
    const key = `accounting-errors:${coin}:${what}`;
    try {
      await fn();
      if ((failures.get(key) ?? 0) >= alertAfterFailedCycles)
        await alarms.clear([key]).catch(() => undefined);
      failures.delete(key);
    } catch (error) {
      metrics.inc('cycle_errors_total');
      logger.error({ coin, err: error }, `accounting ${what} failed; retried next cycle`);
      const count = (failures.get(key) ?? 0) + 1;
      failures.set(key, count);
      if (count < alertAfterFailedCycles) return;
      const message = `${coin} accounting step '${what}' failed ${count} times in a row: ${error instanceof Error ? error.message : String(error)}`;
      await alarms
        .raise({ key, kind: 'accounting-errors', coin, message })
        .catch((err: unknown) => logger.error({ err }, 'operator alert could not be recorded'));
    }
  };
  const checkBalances = async (): Promise<BalanceMismatch[]> => {
    const mismatches = await new BalancesRepository(deps.db).mismatches();
    metrics.set('balance_mismatches', mismatches.length);
    if (mismatches.length > 0)
      logger.error({ mismatches: mismatches.length }, 'ALERT: cached balances differ from the ledger');
    return mismatches;
  };
  const creditOnly = (deps.creditOnlyCoins ?? []).filter(
    (coin) => !deps.chains.has(coin) && deps.config.chains[coin].enabled,
  );
  let cycles = 0;
  const cycle = async (): Promise<void> => {
    for (const coin of creditOnly) {
      await guarded('credits', coin, () => creditAndRecord(ctx, coin));
      await guarded('settlement', coin, () => settleDays(ctx, coin));
    }
    for (const coin of coins) {
      await guarded('credits', coin, () => creditAndRecord(ctx, coin));
      await guarded('blocks', coin, () => processBlocks(ctx, coin));
      await guarded('settlement', coin, () => settleDays(ctx, coin));
      await guarded('reconcile', coin, () => reconcilePayouts(ctx, coin));
      await guarded('payout alerts', coin, () =>
        alarms.checkPayoutRuns(coin, stuckPayoutMinutes * 60_000, ctx.now()),
      );
      // For the operator console (wallet-balance.ts): a failed read is logged and skipped.
      await walletBalances.record(coin);
    }
    if (cycles % BALANCE_CHECK_EVERY_CYCLES === 0)
      await checkBalances().catch((err: unknown) => logger.error({ err }, 'balance check failed'));
    cycles++;
    metrics.inc('cycles_total');
  };
  /** Coins whose last run left payees for a follow-up run (payouts.ts, runFollowUp; payout_runs.deferred). */
  const followUps = new Set<CoinId>();
  const payCoin = async (coin: CoinId): Promise<PayoutRunResult> => {
    const result = await runPayoutsForCoin(ctx, coin);
    if (result.deferred > 0) followUps.add(coin);
    return result;
  };
  const payoutsDue = async (): Promise<void> => {
    const intervalMs = deps.config.accounting.payoutIntervalHours * 3_600_000;
    for (const coin of coins) {
      if (followUps.has(coin)) {
        await guarded('payouts', coin, async () => {
          if (!(await runFollowUp(ctx, coin)).pending) followUps.delete(coin);
        });
        continue;
      }
      const last = await new PayoutsRepository(deps.db).lastRunAt(coin);
      if (last && ctx.now().getTime() - last.getTime() < intervalMs) continue;
      await guarded('payouts', coin, () => payCoin(coin));
    }
  };
  // A run left by a crash is resolved before anything else; leftovers of the last run before a
  // restart are owed a follow-up run as they were before it.
  await exclusive(async () => {
    for (const coin of coins) {
      await guarded('reconcile', coin, () => reconcilePayouts(ctx, coin));
      await guarded('payouts', coin, async () => {
        if (await new PayoutsRepository(deps.db).followUpOwed(coin)) followUps.add(coin);
      });
    }
  });
  let timer: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    if (stopped || deps.loop === false) return;
    timer = setTimeout(
      () => {
        void exclusive(async () => {
          await cycle();
          if (stopped) return; // stopping: no payout run starts after a cycle cut short
          await payoutsDue().catch((err: unknown) => logger.error({ err }, 'payout scheduling failed'));
        }).finally(schedule);
      },
      deps.cycleMs ?? deps.config.accounting.cycleSeconds * 1000,
    );
  };
  schedule();
  logger.info({ coins }, 'accounting started');
  return {
    runOnce: () => exclusive(cycle),
    runPayouts: (coin) =>
      exclusive(async () => {
        const results: PayoutRunResult[] = [];
        for (const c of coin ? [coin] : coins) results.push(await payCoin(c));
        return results;
      }),
    checkBalances: () => exclusive(checkBalances),
    metrics: () => metrics.snapshot(),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await queue;
    },
  };
}
