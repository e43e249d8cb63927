// The operator's hand on a payout run that reconcile cannot decide: a run HELD in `intent`
// because the wallet shows outgoing transfers it can no longer describe (reconcile.ts, holdRun).
// After checking the wallet (docs/OPERATIONS.md) the operator settles it:
//   manjam payout-run <id> sent <txid>   the payees were paid by <txid>: the run and its payouts
//                                        are `sent` with it, then followed to confirmation like
//                                        any sent run (a txid the wallet does not know alerts);
//   manjam payout-run <id> failed        nothing was paid: the run fails and its payees get their
//                                        balances back, so the next run pays them.
// The same two answers settle a SENT run whose transaction the wallet no longer knows or that
// conflicts (its `payout-missing` alert is open, reconcile.ts): `sent <txid>` records the payment
// the operator made by hand in its place (followed to confirmation like any sent run), `failed`
// says nothing ever reached the payees and gives their balances back. Any other run is refused (a
// sent run is followed by its txid); both write in one transaction, as reconcile would, and clear
// the run's payout-missing / payout-stuck alerts.
// The operator console (services/operator) settles through this same function: what the CLI
// refuses, the console refuses, with the refusal's `reason` mapped to an HTTP answer.
import type { CoinId } from '../config/constants.js';
import type { Database } from '../db/index.js';
import { OperatorAlertsRepository } from '../db/repositories/operator-alerts.js';
import { PayoutsRepository } from '../db/repositories/payouts.js';
import type { Logger } from '../logger.js';
import { OperatorAlarms, runKey } from './operator-alerts.js';
import { failRun } from './payout-ledger.js';

export type Settlement = { kind: 'sent'; txid: string } | { kind: 'failed' };

export interface SettledRun {
  runId: bigint;
  coin: string;
  status: 'sent' | 'failed';
  payouts: number;
  /** Base units: paid by the txid (sent) or given back to balances (failed). */
  total: bigint;
}

export const SETTLE_REFUSALS = ['unknown-run', 'not-held', 'bad-txid'] as const;
export type SettleRefusal = (typeof SETTLE_REFUSALS)[number];

/** A refusal the operator can act on (unknown run, run not held, malformed txid). */
export class SettleRunError extends Error {
  override name = 'SettleRunError';

  constructor(
    readonly reason: SettleRefusal,
    message: string,
  ) {
    super(message);
  }
}

const TXID = /^[0-9a-f]{64}$/;

export async function settleRun(
  db: Database,
  logger: Logger,
  runId: bigint,
  settlement: Settlement,
  /** Who settled it, for the log line: 'cli', or the console's operator (`operator:<user id>@<address>`). */
  by = 'cli',
): Promise<SettledRun> {
  const repo = new PayoutsRepository(db);
  const run = await repo.getRun(runId);
  if (!run) throw new SettleRunError('unknown-run', `there is no payout run ${runId}`);
  const coin = run.coin as CoinId;
  const missing = new OperatorAlertsRepository(db);
  const from =
    run.status === 'intent'
      ? 'intent'
      : run.status === 'sent' && (await missing.isOpen(runKey('payout-missing', coin, runId)))
        ? 'sent'
        : undefined;
  if (!from)
    throw new SettleRunError(
      'not-held',
      `payout run ${runId} is '${run.status}'${run.txid ? ` (txid ${run.txid})` : ''}: only a held run ('intent') or a sent run whose transaction is missing (payout-missing) is settled by hand`,
    );
  if (settlement.kind === 'sent' && !TXID.test(settlement.txid))
    throw new SettleRunError(
      'bad-txid',
      `'${settlement.txid}' is not a transaction id (64 lowercase hex digits)`,
    );
  const payouts = await repo.payoutsOfRun(runId);
  const total = payouts.reduce((sum, p) => sum + p.amount, 0n);
  const done =
    settlement.kind === 'sent'
      ? await db.transaction((tx) => new PayoutsRepository(tx).markSent(runId, settlement.txid, from))
      : await failRun(
          db,
          runId,
          'cancelled',
          from === 'intent'
            ? 'settled by the operator: the held run sent nothing'
            : `settled by the operator: its transaction ${run.txid ?? ''} never paid the payees`,
          from,
        );
  // Another process (reconcile) moved the run between the read and the write.
  if (!done)
    throw new SettleRunError('not-held', `payout run ${runId} is no longer held: nothing was changed`);
  await new OperatorAlarms(db, logger, undefined).clear([
    runKey('payout-missing', coin, runId),
    runKey('payout-stuck', coin, runId),
  ]);
  const status = settlement.kind;
  logger.warn(
    {
      coin,
      runId: runId.toString(),
      status,
      txid: settlement.kind === 'sent' ? settlement.txid : undefined,
      payouts: payouts.length,
      total: total.toString(),
      by,
    },
    'held payout run settled by the operator',
  );
  return { runId, coin: run.coin, status, payouts: payouts.length, total };
}
