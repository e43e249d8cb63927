// The operator console's reads and writes (routes: http/routes/operator.ts). Every read reuses
// what /api/health and /metrics already compute; every write goes through the function the CLI
// uses (settle-run.ts, recredit-block.ts) or one repository statement, and is logged at warn as `operator action`
// with who (user id, email), from where (client address) and what, and added to the audit log
// (operator_actions) the console shows. The audit line is written right after the action: should
// that write fail, the action stands and its log line still says who did it.
import type {
  Health,
  OperatorAction,
  OperatorActionPage,
  OperatorAlert,
  OperatorAlerts,
  OperatorBans,
  OperatorHealth,
  OperatorPayoutRunPage,
  OperatorRole,
  OperatorRoleRequest,
  RecreditedBlock,
  RunningConfig,
  SettledRun,
  SettleRunRequest,
  TopWorkers,
  TopWorkerWindow,
} from '@manjam/contract';
import { MESSAGES, TOP_WORKERS_LIMIT } from '@manjam/contract';
import { runKey } from '../../accounting/operator-alerts.js';
import { blockIdOfReturnedKey, recreditBlock, RecreditBlockError } from '../../accounting/recredit-block.js';
import { settleRun, SettleRunError, type Settlement } from '../../accounting/settle-run.js';
import type { CoinId } from '../../config/constants.js';
import { OperatorAlertsRepository } from '../../db/repositories/operator-alerts.js';
import { redactConfig } from '../../config/index.js';
import type { Database } from '../../db/index.js';
import { OperatorConsoleRepository, type AlertRow } from '../../db/repositories/operator-console.js';
import { TopWorkersQueries } from '../../db/repositories/queries-top-workers.js';
import type { Logger } from '../../logger.js';
import { notFound, ServiceError, validationError } from '../errors.js';
import { healthStatus } from '../shared/health.js';
import {
  averagingSeconds,
  hashrateFromDifficulty,
  HOUR_SECONDS,
  MIN_AVERAGING_SECONDS,
  REALTIME_SECONDS,
} from '../shared/hashrate.js';
import { algorithmId, HASH_FACTORS } from '../stats/figures.js';
import type { PoolService } from '../stats/pool-service.js';
import { setOperatorRole } from './operator-role.js';
import { runbookOf } from './runbook.js';

/** The Stratum ban list of this process (stratum/bans.ts BanList), when Stratum runs here. */
export interface BanControl {
  active(nowMs: number): { scope: 'connection' | 'ip'; ip: string; login: string | null; until: number }[];
  lift(ip: string, nowMs: number): number;
}

/** What /api/health reports (http/types.ts HealthReport). */
export interface HealthSource {
  ok: boolean;
  database: Health['database'];
  chains: Health['chains'];
  alerts: readonly unknown[];
  /** This process's Stratum figures, when it runs Stratum (the share writer's backlog among them). */
  stratum?: Health['stratum'];
}

export interface OperatorDeps {
  db: Database;
  logger: Logger;
  pool: PoolService;
  health: () => Promise<HealthSource>;
  bans?: BanControl;
  /** The configuration this process runs with (shown with its secrets redacted). */
  config: object;
  now: () => number;
}

/** Who acts: the signed-in operator and the client address of the request. */
export interface Actor {
  userId: number;
  email: string;
  ip: string;
}

export class OperatorService {
  private readonly repo: OperatorConsoleRepository;

  constructor(private readonly deps: OperatorDeps) {
    this.repo = new OperatorConsoleRepository(deps.db);
  }

  async health(): Promise<OperatorHealth> {
    const now = this.deps.now();
    const [report, counts] = await Promise.all([
      this.deps.health(),
      this.deps.pool.metricsCounts(new Date(now - 3_600_000)),
    ]);
    return {
      asOf: new Date(now).toISOString(),
      status: healthStatus(report),
      database: report.database,
      chains: report.chains,
      openAlerts: report.alerts.length,
      shareLogBacklog: report.stratum?.sharesUnstored ?? null,
      accounting: counts.credited.map((c) => ({
        coin: c.coin,
        creditedThrough: c.through.toISOString(),
        // The same figure as manjam_accounting_credited_behind_seconds.
        behindSeconds: Math.max(0, Math.round((now - c.through.getTime()) / 1000)),
      })),
    };
  }

  async alerts(page: number, pageSize: number): Promise<OperatorAlerts> {
    const [open, past] = await Promise.all([
      this.repo.openAlerts(),
      this.repo.pastAlerts(pageSize, (page - 1) * pageSize),
    ]);
    return {
      open: open.map(alertView),
      past: { items: past.rows.map(alertView), page, pageSize, total: past.total },
    };
  }

  async closeAlert(actor: Actor, id: bigint): Promise<OperatorAlert> {
    const closed = await this.repo.closeAlert(id);
    if (!closed) throw notFound();
    await this.logAction(actor, 'close-alert', closed.key);
    return alertView(closed);
  }

  async payoutRuns(page: number, pageSize: number): Promise<OperatorPayoutRunPage> {
    const { rows, total } = await this.repo.payoutRuns(pageSize, (page - 1) * pageSize);
    // Settled by hand (settle-run.ts): a held run, or a sent one whose transaction is missing.
    const open = new Set((await new OperatorAlertsRepository(this.deps.db).open()).map((a) => a.key));
    return {
      items: rows.map((r) => ({
        id: r.id.toString(),
        coin: r.coin,
        status: r.status,
        settleable:
          r.status === 'intent' ||
          (r.status === 'sent' && open.has(runKey('payout-missing', r.coin as CoinId, r.id))),
        txid: r.txid,
        payouts: r.payouts,
        total: r.total.toString(),
        failure: r.failure,
        error: r.error,
        createdAt: r.createdAt.toISOString(),
      })),
      page,
      pageSize,
      total,
    };
  }

  /** Settles a held run exactly as `manjam payout-run` does (settle-run.ts): same refusals, one transaction. */
  async settleRun(actor: Actor, id: bigint, request: SettleRunRequest): Promise<SettledRun> {
    const settlement: Settlement =
      request.outcome === 'sent' ? { kind: 'sent', txid: request.txid } : { kind: 'failed' };
    try {
      const by = `operator:${actor.userId}@${actor.ip}`;
      const settled = await settleRun(this.deps.db, this.deps.logger, id, settlement, by);
      await this.logAction(actor, 'settle-payout-run', `run ${id} ${settled.status}`);
      return {
        id: settled.runId.toString(),
        coin: settled.coin,
        status: settled.status,
        payouts: settled.payouts,
        total: settled.total.toString(),
      };
    } catch (error) {
      if (!(error instanceof SettleRunError)) throw error;
      this.deps.logger.warn(
        { operator: actor.userId, ip: actor.ip, runId: id.toString(), reason: error.reason },
        `operator settle refused: ${error.message}`,
      );
      if (error.reason === 'unknown-run') throw notFound();
      if (error.reason === 'bad-txid') throw validationError({ txid: MESSAGES.txidInvalid });
      throw new ServiceError(409, 'payout-run-not-held', 'payoutRunNotHeld');
    }
  }

  /**
   * Credits a returned block's payees back what its orphaning reversed, as `manjam block-recredit`
   * does (recredit-block.ts): same refusals, one transaction with the block's row locked.
   */
  async recreditBlock(actor: Actor, id: number): Promise<RecreditedBlock> {
    try {
      const by = `operator:${actor.userId}@${actor.ip}`;
      const done = await recreditBlock(this.deps.db, this.deps.logger, id, by);
      await this.logAction(actor, 'recredit-block', `block ${done.blockId} ${done.coin} ${done.height}`);
      return {
        id: done.blockId.toString(),
        coin: done.coin,
        height: done.height,
        hash: done.hash,
        payees: done.payees,
        total: done.total.toString(),
      };
    } catch (error) {
      if (!(error instanceof RecreditBlockError)) throw error;
      this.deps.logger.warn(
        { operator: actor.userId, ip: actor.ip, blockId: id, reason: error.reason },
        `operator re-credit refused: ${error.message}`,
      );
      if (error.reason === 'unknown-block') throw notFound();
      if (error.reason === 'already-recredited')
        throw new ServiceError(409, 'block-already-recredited', 'blockAlreadyRecredited');
      throw new ServiceError(409, 'block-not-returned', 'blockNotReturned');
    }
  }

  /** Gives or takes the operator role by email, as `manjam operator grant|revoke` does; 404 when no account has it. */
  async setRole(actor: Actor, request: OperatorRoleRequest): Promise<OperatorRole> {
    const by = `operator:${actor.userId}@${actor.ip}`;
    const userId = await setOperatorRole(this.deps.db, this.deps.logger, request.action, request.email, by);
    if (userId === undefined) throw new ServiceError(404, 'account-not-found', 'operatorAccountNotFound');
    await this.logAction(
      actor,
      request.action === 'grant' ? 'grant-operator' : 'revoke-operator',
      request.email,
    );
    return { email: request.email, operator: request.action === 'grant' };
  }

  bans(): OperatorBans {
    const bans = this.deps.bans;
    if (!bans) return { available: false, items: [] };
    return {
      available: true,
      items: bans.active(this.deps.now()).map((b) => ({ ...b, until: new Date(b.until).toISOString() })),
    };
  }

  async liftBan(actor: Actor, ip: string): Promise<{ lifted: number }> {
    const lifted = this.deps.bans?.lift(ip, this.deps.now()) ?? 0;
    if (lifted === 0) throw notFound();
    await this.logAction(actor, 'lift-ban', ip);
    return { lifted };
  }

  /**
   * The fastest workers of every account over the last 10 minutes or hour, with the figures the
   * workers page shows (services/shared/hashrate.ts: the same windows and averaging rule).
   */
  async topWorkers(window: TopWorkerWindow): Promise<TopWorkers> {
    const now = new Date(this.deps.now());
    const rows = await new TopWorkersQueries(this.deps.db).topWorkers(
      {
        rankBy: window,
        now,
        realtimeSeconds: REALTIME_SECONDS,
        hourSeconds: HOUR_SECONDS,
        minSeconds: MIN_AVERAGING_SECONDS,
      },
      TOP_WORKERS_LIMIT,
      HASH_FACTORS,
    );
    return {
      window,
      items: rows.map((r) => ({
        workerId: r.workerId,
        account: r.username,
        address: r.address,
        worker: r.name,
        coin: r.coin,
        algorithm: algorithmId(r.algorithm, r.coin),
        realtime: hashrateFromDifficulty(
          r.coin,
          r.difficulty10m,
          averagingSeconds(now, r.firstBucket1h, REALTIME_SECONDS),
        ),
        hour: hashrateFromDifficulty(
          r.coin,
          r.difficulty1h,
          averagingSeconds(now, r.firstBucket1h, HOUR_SECONDS),
        ),
        lastShareAt: r.lastShareAt?.toISOString() ?? null,
      })),
    };
  }

  /** The configuration as running, every secret redacted by the start-up log's own rule (config/load.ts). */
  runningConfig(): RunningConfig {
    return { config: redactConfig(this.deps.config) as RunningConfig['config'] };
  }

  /** The audit log, the latest action first. */
  async actions(page: number, pageSize: number): Promise<OperatorActionPage> {
    const { rows, total } = await this.repo.actions(pageSize, (page - 1) * pageSize);
    return {
      items: rows.map((r) => ({
        id: r.id.toString(),
        email: r.email,
        ip: r.ip,
        action: r.action,
        target: r.target,
        at: r.at.toISOString(),
      })),
      page,
      pageSize,
      total,
    };
  }

  private async logAction(actor: Actor, action: OperatorAction, target: string): Promise<void> {
    this.deps.logger.warn(
      { operator: actor.userId, email: actor.email, ip: actor.ip, action, target },
      'operator action',
    );
    await this.repo.recordAction({ userId: actor.userId, email: actor.email, ip: actor.ip, action, target });
  }
}

function alertView(row: AlertRow): OperatorAlert {
  return {
    id: row.id.toString(),
    key: row.key,
    kind: row.kind,
    coin: row.coin,
    message: row.message,
    raisedAt: row.raisedAt.toISOString(),
    clearedAt: row.clearedAt?.toISOString() ?? null,
    runbook: runbookOf(row.kind),
    blockId: row.kind === 'block-returned' ? (blockIdOfReturnedKey(row.key)?.toString() ?? null) : null,
  };
}
