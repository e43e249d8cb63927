// Operator alerts raised by accounting: a payout run that cannot complete, a wallet that cannot
// fund a run, an accounting step that keeps failing. Each alert is an open row in
// operator_alerts (so /api/health and /metrics see it from any process), an `ALERT:` log line
// when it opens, and an email to the operator when SMTP and an operator address are configured.
import type { CoinId } from '../config/constants.js';
import type { Database } from '../db/index.js';
import { OperatorAlertsRepository, type OperatorAlertKind } from '../db/repositories/operator-alerts.js';
import { PayoutsRepository } from '../db/repositories/payouts.js';
import type { Logger } from '../logger.js';

/** Sends the operator one message (email); rejects when it could not be delivered. */
export type OperatorNotifier = (message: { subject: string; text: string }) => Promise<void>;

export interface RaisedAlert {
  key: string;
  kind: OperatorAlertKind;
  coin: CoinId | null;
  message: string;
}

export class OperatorAlarms {
  private readonly repo: OperatorAlertsRepository;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly notify: OperatorNotifier | undefined,
  ) {
    this.repo = new OperatorAlertsRepository(db);
  }

  /** Opens the alert unless it is open already; the log line and the email go out once. */
  async raise(alert: RaisedAlert): Promise<void> {
    if (!(await this.repo.raise(alert))) return;
    this.logger.error({ alert: alert.key, kind: alert.kind, coin: alert.coin }, `ALERT: ${alert.message}`);
    if (!this.notify) return;
    const subject = `[Manjam] ${alert.kind}${alert.coin ? ` ${alert.coin}` : ''}`;
    await this.notify({
      subject,
      text: `${alert.message}\n\nAlert key: ${alert.key}\nSee the operator runbook in docs/OPERATIONS.md.`,
    }).catch((err: unknown) => this.logger.error({ err, alert: alert.key }, 'operator alert email failed'));
  }

  /** Whether an alert with this key is open. */
  async isOpen(key: string): Promise<boolean> {
    return (await this.repo.open()).some((alert) => alert.key === key);
  }

  async clear(keys: readonly string[]): Promise<void> {
    for (const key of await this.repo.clear(keys)) this.logger.info({ alert: key }, 'operator alert cleared');
  }

  /**
   * Raises payout-stuck for every run of the coin still in 'intent' or 'sent' after `stuckMs`,
   * and clears the stuck alerts of runs that have moved on (payout-missing is cleared by
   * reconcile.ts once the run's transaction is confirmed again).
   */
  async checkPayoutRuns(coin: CoinId, stuckMs: number, now: Date): Promise<void> {
    const runs = await new PayoutsRepository(this.db).runsWithStatus(coin, ['intent', 'sent']);
    const stuck = runs.filter((run) => now.getTime() - run.createdAt.getTime() >= stuckMs);
    for (const run of stuck) {
      const minutes = Math.floor((now.getTime() - run.createdAt.getTime()) / 60_000);
      await this.raise({
        key: runKey('payout-stuck', coin, run.id),
        kind: 'payout-stuck',
        coin,
        message: `${coin} payout run ${run.id} has been '${run.status}' for ${minutes} min${run.txid ? ` (txid ${run.txid})` : ''}: it has not completed`,
      });
    }
    const stuckKeys = new Set(stuck.map((run) => runKey('payout-stuck', coin, run.id)));
    const open = await this.repo.open();
    const done = open.filter((a) => a.coin === coin && a.kind === 'payout-stuck' && !stuckKeys.has(a.key));
    await this.clear(done.map((a) => a.key));
  }
}

/** `<kind>:<coin>:<runId>` */
export function runKey(kind: 'payout-stuck' | 'payout-missing', coin: CoinId, runId: bigint): string {
  return `${kind}:${coin}:${runId}`;
}
