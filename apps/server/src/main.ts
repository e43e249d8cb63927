// Composition root: config -> db -> coin families (coins/registry.ts) -> accounting -> stratum -> http.
// It names no coin and no family: each family's chain side opens its own ports and wallets.
// Each role starts only what it needs, and loads only that: accounting and alerts (mail, push),
// the share log (NATS) and the API are imported by the processes that run them; `all` runs
// everything in one process.
import { join } from 'node:path';
import { COIN_IDS, connectionPlan, type Config, type CoinId, type Role } from './config/core.js';
import { ChainTipsRepository } from './db/repositories/chain-tips.js';
import { migrate, openDatabase, type Database, type OpenOptions } from './db/index.js';
import { OperatorAlertsRepository } from './db/repositories/operator-alerts.js';
import { PoolEvents } from './events.js';
import { startControlSocket } from './control/socket.js';
import type { Logger } from './logger.js';
import { figureTotal, type ChainMode, type FamilyChain } from './coins/family.js';
import { COIN_FAMILIES } from './coins/registry.js';
import { startChains } from './coins/late-chain.js';
import { startStratum, type StratumService } from './stratum/index.js';
import type { AccountingService } from './accounting/index.js';
import { ACCOUNTING_COUNTERS } from './accounting/metrics.js';
import { runAsLeader } from './accounting/leader.js';
import type { HealthReport, HttpService, StratumMetrics } from './http/index.js';

/** What the start-up banner prints: where the web app and the Stratum ports listen. */
export interface PoolSummary {
  webUrl: string | null;
  /** A Stratum-only process's /metrics listener (null where the API serves /metrics). */
  metricsUrl: string | null;
  stratum: { coin: string; url: string; live: boolean }[];
  exampleLogin: string;
}

export interface RunningPool {
  config: Config;
  db: Database;
  events: PoolEvents;
  /** Each family's chain side in this process (none where the role needs no node). */
  chains: FamilyChain[];
  stratum: StratumService | undefined;
  /** The accounting loop, while this process holds the accounting lock. */
  readonly accounting: AccountingService | undefined;
  http: HttpService | undefined;
  health(): Promise<HealthReport>;
  summary(): PoolSummary;
  /** Stops every part in reverse start order; true when each stopped without an error. */
  stop(): Promise<boolean>;
}

export function databaseOptions(config: Config): OpenOptions {
  return { databaseUrl: config.databaseUrl, dataDir: join(config.dataDir, 'pglite') };
}

const has = (role: Role, part: Exclude<Role, 'all'>) => role === 'all' || role === part;

export async function startPool({
  config,
  role,
  logger,
}: {
  config: Config;
  role: Role;
  logger: Logger;
}): Promise<RunningPool> {
  logConnectionPlan(config, logger);
  const stops: { name: string; stop: () => Promise<void> }[] = [];
  const stopAll = async (): Promise<boolean> => {
    // Reverse start order: stop accepting work first, flush, then close the database and chains.
    let clean = true;
    for (const part of stops.splice(0).reverse()) {
      try {
        await part.stop();
      } catch (error) {
        clean = false;
        logger.error({ err: error, part: part.name }, 'error while stopping');
      }
    }
    return clean;
  };
  try {
    // The database and the families' chains start side by side: each spends its start-up waiting.
    // A regional Stratum node may take its jobs from the core's job feed instead of nodes of its own.
    const jobsFromCore = role === 'stratum' && config.distributed.jobsFromCore;
    const needsNodes = (has(role, 'stratum') && !jobsFromCore) || has(role, 'accounting');
    const mode: ChainMode | undefined = jobsFromCore ? 'core-jobs' : needsNodes ? 'nodes' : undefined;
    // A family whose chain does not start is retried while the others run (coins/late-chain.ts).
    const [dbResult, chainsResult] = await Promise.allSettled([
      openMigratedDatabase(config, logger),
      mode ? startChains(COIN_FAMILIES, config, logger, mode) : Promise.resolve([]),
    ]);
    if (dbResult.status === 'fulfilled') stops.push({ name: 'database', stop: () => dbResult.value.close() });
    const chains: FamilyChain[] = chainsResult.status === 'fulfilled' ? chainsResult.value : [];
    for (const chain of chains) stops.push({ name: `${chain.family} chain`, stop: () => chain.stop() });
    if (dbResult.status === 'rejected') throw dbResult.reason;
    if (chainsResult.status === 'rejected') throw chainsResult.reason;
    const db = dbResult.value;
    // The embedded database is this process's alone: `manjam operator` and `payout-run` reach it here.
    const control =
      db.kind === 'pglite' ? await startControlSocket({ dataDir: config.dataDir, db, logger }) : undefined;
    if (control) stops.push({ name: 'control socket', stop: () => control.close() });
    const events = new PoolEvents();

    // Accounting and alerts run once per deployment: in the process holding the accounting lock.
    const leader = has(role, 'accounting')
      ? runAsLeader({ db, logger, name: 'accounting' }, async () =>
          (await import('./background.js')).startBackground(config, db, logger, events, chains),
        )
      : undefined;
    if (leader) {
      stops.push({ name: 'accounting', stop: () => leader.stop() });
      await leader.ready;
    }

    // A regional Stratum node (its own role, with a NATS URL) puts shares on the JetStream share log.
    const sink =
      role === 'stratum' && config.distributed.natsUrl
        ? await (await import('./sharelog/index.js')).startShareLogPublisher(config, logger)
        : undefined;
    const stratum = has(role, 'stratum')
      ? await startStratum({
          config,
          db,
          logger,
          events,
          chains,
          ...(sink ? { sink } : {}),
        })
      : undefined;
    if (stratum) stops.push({ name: 'stratum', stop: () => stratum.stop() });

    const stratumMetrics: StratumMetrics | undefined = stratum && {
      connections: () => stratum.stats().connections,
      sharesByResult: () => {
        const stats = stratum.stats();
        return { accepted: stats.sharesAccepted, ...stats.sharesRejected };
      },
      bans: () => stratum.stats().bans,
      figures: () => stratum.figures(),
      sharesUnstored: () => stratum.stats().sharesUnstored,
    };
    const health = () =>
      healthReport(
        db,
        chains,
        // A process without nodes (an api run apart) reports what the Stratum processes recorded.
        mode ? [] : COIN_IDS.filter((coin) => config.chains[coin].enabled),
        stratum &&
          (() => {
            const { connections, sharesUnstored } = stratum.stats();
            const figures = stratum.figures();
            return {
              connections,
              v2: {
                connections: figureTotal(figures, 'manjam_stratum_v2_connections'),
                channels: figureTotal(figures, 'manjam_stratum_v2_channels'),
              },
              sharesUnstored,
            };
          }),
      );
    // An API process without Stratum lists the configured ports; their V2 authority key is read
    // from the config or dataDir key file the Stratum process uses (never generated here: see
    // CoinFamily.authorityKey), so one shared secret shows miners the key they will be given.
    const v2AuthorityKey =
      has(role, 'api') && !stratum
        ? (
            await Promise.all(
              COIN_FAMILIES.map((f) => f.authorityKey?.(config) ?? Promise.resolve(undefined)),
            )
          ).find(Boolean)
        : undefined;
    // The API (Fastify, routes, services) is loaded only by the processes that serve it.
    const http = has(role, 'api')
      ? await (
          await import('./http/index.js')
        ).startHttp({
          config,
          db,
          logger,
          events,
          health,
          pool: {
            host: config.publicHost,
            ports: () =>
              stratum?.ports() ??
              config.stratum.ports.map((p) => ({
                coin: p.coin,
                port: p.port,
                tls: Boolean(p.tls),
                scheme: p.scheme,
                protocol: p.protocol,
                ...(p.protocol === 'v2' && v2AuthorityKey ? { authorityKey: v2AuthorityKey } : {}),
              })),
            hashrate: (coin: CoinId) => stratum?.hashrate(coin) ?? null,
          },
          ...(leader
            ? { accountingCounters: () => leader.current()?.accounting.metrics() ?? idleAccountingCounters() }
            : {}),
          ...(chains.some((c) => c.up().length > 0) ? { chainUp: () => chains.flatMap((c) => c.up()) } : {}),
          ...(stratumMetrics ? { metrics: stratumMetrics } : {}),
          ...(stratum ? { bans: stratum.bans() } : {}),
        })
      : undefined;
    if (http) stops.push({ name: 'http', stop: () => http.stop() });
    // A Stratum-only process serves /metrics alone on the http host and port.
    const metricsServer =
      !http && stratumMetrics
        ? await (await import('./http/metrics-stratum.js')).startMetricsServer(config, stratumMetrics, logger)
        : undefined;
    if (metricsServer) stops.push({ name: 'metrics', stop: () => metricsServer.stop() });

    return {
      config,
      db,
      events,
      chains,
      stratum,
      get accounting() {
        return leader?.current()?.accounting;
      },
      http,
      health,
      summary: () => ({
        webUrl: http ? http.url.replace('0.0.0.0', 'localhost') : null,
        metricsUrl: metricsServer ? `${metricsServer.url.replace('0.0.0.0', 'localhost')}/metrics` : null,
        stratum: (stratum?.ports() ?? []).map((p) => ({
          coin: p.coin,
          // A V2 URL names the authority key (the form Braiins OS and SRI's translator take).
          url:
            p.protocol === 'v2'
              ? `stratum2+tcp://${config.publicHost}:${p.port}/${p.authorityKey ?? ''}`
              : `stratum+${p.tls ? 'ssl' : 'tcp'}://${config.publicHost}:${p.port}`,
          live: true,
        })),
        exampleLogin: 'YOUR_USERNAME',
      }),
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The file-descriptor budget (config/fd-budget.ts) every listener of this process caps itself by. */
function logConnectionPlan(config: Config, logger: Logger): void {
  const plan = connectionPlan(config);
  if (plan.fits)
    logger.info({ budget: plan }, 'file descriptors: connection caps within the open-files limit');
  else
    logger.warn(
      { budget: plan },
      'file descriptors: the connection caps and the reserve exceed the open-files limit; raise LimitNOFILE or lower http.maxConnections / stratum.maxConnectionsPerPort',
    );
}

/** A standby's accounting counters: every counter, at zero. */
function idleAccountingCounters(): Record<string, number> {
  return Object.fromEntries(ACCOUNTING_COUNTERS.map((name) => [name, 0]));
}

async function openMigratedDatabase(config: Config, logger: Logger): Promise<Database> {
  const db = await openDatabase(databaseOptions(config));
  try {
    const applied = await migrate(db);
    if (applied.length) logger.info({ applied: applied.map((m) => m.version) }, 'migrations applied');
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}

async function healthReport(
  db: Database,
  chains: readonly FamilyChain[],
  recordedCoins: readonly CoinId[],
  stratum: (() => NonNullable<HealthReport['stratum']>) | undefined,
): Promise<HealthReport> {
  const databaseOk = await db.ping();
  const chainReports = (await Promise.all(chains.map((chain) => chain.health()))).flat();
  const recorded = databaseOk ? await recordedTips(db, recordedCoins) : [];
  const alerts = databaseOk ? await new OperatorAlertsRepository(db).open() : [];
  // The embedded database's share of this process's memory (PGlite's thread); a failed read leaves it out.
  const memory = databaseOk ? await db.memory?.().catch(() => undefined) : undefined;
  return {
    // Recorded tips are other processes' reports: they never make this process unhealthy.
    ok: databaseOk && chainReports.every((c) => c.ok),
    database: databaseOk
      ? { ok: true, kind: db.kind, ...(memory ? { memory } : {}) }
      : { ok: false, kind: db.kind, error: 'database does not answer' },
    chains: [...chainReports, ...recorded],
    alerts: alerts.map((a) => ({
      kind: a.kind,
      coin: a.coin,
      message: a.message,
      since: a.raisedAt.toISOString(),
    })),
    ...(stratum ? { stratum: stratum() } : {}),
  };
}

/**
 * Each coin's last tip a Stratum process moved to (chain_tips), for a process that runs no node:
 * `ok` while one was recorded, `tipAt` when. Whether the nodes answer now is the health of the
 * processes that run them (docs/REGIONS.md).
 */
async function recordedTips(db: Database, coins: readonly CoinId[]): Promise<HealthReport['chains']> {
  const repository = new ChainTipsRepository(db);
  return Promise.all(
    coins.map(async (coin) => {
      const tip = await repository.get(coin);
      return tip
        ? { coin, ok: true, height: tip.height, tipAt: tip.updatedAt.toISOString() }
        : {
            coin,
            ok: false,
            height: null,
            error: 'no tip recorded yet: no Stratum process has worked on this coin',
          };
    }),
  );
}
