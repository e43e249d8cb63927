import { algorithmOf, isBitcoinFamily, MIN_SHARE_DIFFICULTY, type BitcoinFamilyCoin } from '@manjam/protocol';
import type { RandomXFigures } from '@manjam/randomx';
import { once } from 'node:events';
import type { Logger } from 'pino';
import {
  connectionPlan,
  type CoinId,
  type Config,
  type PayoutScheme,
  type StratumPortConfig,
} from '../config/index.js';
import type { Database } from '../db/index.js';
import { ChainTipsRepository } from '../db/repositories/chain-tips.js';
import type { PoolEvents } from '../events.js';
import type { TemplateSource } from '../coins/bitcoin/source.js';
import { HashrateTracker, type LiveHashrate } from '../shares/hashrate.js';
import type { ShareSink } from '../shares/sink.js';
import { ShareWriter, shareWriterSettings } from '../shares/writer.js';
import { LoginResolver } from './auth.js';
import { BanJudge } from './ban-judge.js';
import { BanList, type BanScope } from './bans.js';
import { FairWork } from './fair-work.js';
import { watchCoinAvailability } from '../coins/bitcoin/stratum/coin-availability.js';
import {
  REJECTION_KINDS,
  type PoolRuntime,
  type RejectionKind,
  type StratumSession,
  type SubmitContext,
} from '../coins/bitcoin/stratum/context.js';
import { ExtranonceAllocator } from './extranonce.js';
import { Sha256dQueue } from '../coins/bitcoin/stratum/sha256d-queue.js';
import { sha256dHashed, sha256dRefused } from '../coins/bitcoin/stratum/submit.js';
import { JobManager, type Job } from '../coins/bitcoin/stratum/jobs.js';
import { SCRYPT_IN_FLIGHT_PER_THREAD, ScryptPool } from '../coins/bitcoin/stratum/pow-pool.js';
import { StratumPort } from '../coins/bitcoin/stratum/server.js';
import { startMoneroPort, type MoneroPort } from '../coins/monero/stratum/start.js';
import type { MoneroChainRuntime } from '../coins/monero/chain.js';

export interface StratumDeps {
  config: Config;
  db: Database;
  logger: Logger;
  events: PoolEvents;
  sources: TemplateSource[];
  /** Where shares go instead of the local journal (the JetStream share log of a regional node). */
  sink?: ShareSink;
  /** XMR's chain side: its port (config `stratum.ports`, coin XMR) opens when it is given. */
  monero?: MoneroChainRuntime;
}

export interface StratumService {
  ports(): { coin: CoinId; port: number; tls: boolean; scheme: PayoutScheme }[];
  stats(): {
    connections: number;
    sharesAccepted: number;
    sharesRejected: Record<string, number>;
    bans: Record<BanScope, number>;
  };
  /** Each XMR port's RandomX pool now (queue, hashes, seeds, threads), for /metrics. */
  randomx(): { port: number; figures: RandomXFigures }[];
  /** Live pool hashrate (H/s) over the last 10 minutes. */
  hashrate(coin: CoinId): number;
  /** Live figures of a worker ("<payee key>.<worker>"), a payee ("BTC:w:<address>", "BTC:u:<userId>") or 'pool'. */
  liveHashrate(coin: CoinId, key: string): LiveHashrate;
  /** Reconnects clients, closes ports, flushes shares. */
  stop(): Promise<void>;
}

const SWEEP_MS = 5_000;

/** A port of the V1 (Bitcoin-family) dialect. */
type V1PortConfig = StratumPortConfig & { coin: BitcoinFamilyCoin };

export async function startStratum(deps: StratumDeps): Promise<StratumService> {
  const { config, db, events } = deps;
  const logger = deps.logger.child({ module: 'stratum' });
  const writer: ShareSink =
    deps.sink ??
    new ShareWriter({
      db,
      events,
      logger,
      ...shareWriterSettings(config),
    });
  // Takes this process's share journal (a second process on it refuses to start) and writes what a crash left in it.
  await writer.start();
  const liveCoins = new Set<CoinId>(deps.sources.map((s) => s.coin));
  if (deps.monero) liveCoins.add('XMR');
  for (const p of config.stratum.ports)
    if (!liveCoins.has(p.coin))
      logger.warn({ port: p.port, coin: p.coin }, 'no chain for this port: not opened');
  const ports = config.stratum.ports.filter(
    (p): p is V1PortConfig => isBitcoinFamily(p.coin) && liveCoins.has(p.coin),
  );
  const moneroConfigs = deps.monero ? config.stratum.ports.filter((p) => p.coin === 'XMR') : [];
  const bans = new BanList(config.stratum.ban);
  const sessions = new Set<StratumSession>();
  const scrypt = ports.some((p) => algorithmOf(p.coin) === 'scrypt') ? new ScryptPool() : undefined;
  const pool: PoolRuntime = {
    config,
    logger,
    events,
    writer,
    allocator: new ExtranonceAllocator(undefined, config.stratum.instanceId),
    bans,
    resolver: new LoginResolver(db),
    hashrate: new Map<CoinId, HashrateTracker>([
      ...deps.sources.map((s) => [s.coin, new HashrateTracker(algorithmOf(s.coin))] as const),
      ...(deps.monero ? [['XMR', new HashrateTracker(algorithmOf('XMR'))] as const] : []),
    ]),
    judge: new BanJudge(bans, sessions, logger, (session) => [...session.logins.keys()]),
    scrypt,
    scryptWork: scrypt
      ? new FairWork<StratumSession>(config.stratum.powQueue, scrypt.size * SCRYPT_IN_FLIGHT_PER_THREAD)
      : undefined,
    sha256d: new Sha256dQueue<SubmitContext>(sha256dHashed, sha256dRefused),
    sessions,
    stats: {
      accepted: 0,
      rejected: Object.fromEntries(REJECTION_KINDS.map((k) => [k, 0])) as Record<RejectionKind, number>,
    },
    pendingBlocks: new Set(),
  };
  const managers = new Map<CoinId, JobManager>();
  for (const source of deps.sources) {
    const manager = new JobManager(source, {
      poolTag: config.stratum.poolTag,
      extranonce2Size: config.stratum.extranonce2Size,
      logger,
    });
    manager.onJob((job) => onJob(pool, source.coin, job, new ChainTipsRepository(db)));
    managers.set(source.coin, manager);
  }
  const listening: { coin: CoinId; port: number; tls: boolean; scheme: PayoutScheme; server: StratumPort }[] =
    [];
  const moneroPorts: { port: number; scheme: PayoutScheme; xmr: MoneroPort }[] = [];
  // Each port's share of the open-files limit: past it, Node closes a connection as it is accepted.
  const maxPerPort = connectionPlan(config).stratum.maxConnectionsPerPort;
  try {
    for (const p of moneroConfigs) {
      const xmr = await startMoneroPort({
        config,
        port: p,
        chain: deps.monero as MoneroChainRuntime,
        db,
        logger,
        events,
        sink: writer,
        resolver: pool.resolver,
        hashrate: pool.hashrate.get('XMR') as HashrateTracker,
        bans: pool.bans,
        allocator: pool.allocator,
      });
      xmr.server.server.maxConnections = maxPerPort;
      moneroPorts.push({ port: xmr.port, scheme: p.scheme, xmr });
      logger.info(
        { coin: 'XMR', port: xmr.port, tls: xmr.server.tls, scheme: p.scheme },
        'stratum port listening (RandomX)',
      );
    }
    for (const p of ports) {
      const algorithm = algorithmOf(p.coin);
      const source = deps.sources.find((s) => s.coin === p.coin) as TemplateSource;
      const server = new StratumPort({
        pool,
        config: p,
        coin: p.coin,
        scheme: p.scheme,
        algorithm,
        params: source.params,
        jobs: managers.get(p.coin) as JobManager,
        minDifficulty: Math.max(p.vardiff.min, MIN_SHARE_DIFFICULTY[algorithm]),
      });
      server.server.maxConnections = maxPerPort;
      const port = await server.listen(config.stratum.host);
      listening.push({ coin: p.coin, port, tls: server.tls, scheme: p.scheme, server });
      logger.info({ coin: p.coin, port, tls: server.tls, scheme: p.scheme }, 'stratum port listening');
    }
  } catch (error) {
    await Promise.all(listening.map((l) => l.server.close()));
    await Promise.all(moneroPorts.map((m) => m.xmr.close()));
    await pool.scrypt?.close();
    await writer.stop();
    throw error;
  }
  for (const manager of managers.values()) manager.start();
  // After the first jobs: a coin whose nodes are already silent starts paused.
  const stopWatchingNodes = watchCoinAvailability(pool, deps.sources, managers);
  const sweeper = setInterval(() => {
    sweep(pool);
    for (const manager of managers.values()) manager.trim();
  }, SWEEP_MS);
  sweeper.unref();

  let stopped: Promise<void> | undefined;
  return {
    ports: () => [
      ...listening.map(({ coin, port, tls, scheme }) => ({ coin, port, tls, scheme })),
      ...moneroPorts.map(({ port, scheme, xmr }) => ({
        coin: 'XMR' as const,
        port,
        tls: xmr.server.tls,
        scheme,
      })),
    ],
    stats: () => stratumStats(pool, moneroPorts),
    randomx: () => moneroPorts.map(({ port, xmr }) => ({ port, figures: xmr.randomx() })),
    hashrate: (coin) => pool.hashrate.get(coin)?.hashrate('pool', '10m', Date.now()) ?? 0,
    liveHashrate: (coin, key) =>
      pool.hashrate.get(coin)?.live(key, Date.now()) ?? {
        '10m': 0,
        '1h': 0,
        '24h': 0,
        bestDifficulty: 0,
        lastShareAt: null,
      },
    stop: () => {
      stopped ??= (async () => {
        clearInterval(sweeper);
        stopWatchingNodes();
        for (const manager of managers.values()) manager.stop();
        try {
          await Promise.all([
            closeAll(
              pool,
              listening.map((l) => l.server),
            ),
            ...moneroPorts.map((m) => m.xmr.close()),
          ]);
          await Promise.allSettled([...pool.pendingBlocks]);
        } finally {
          // Accepted shares are flushed whatever happened while closing the ports.
          await writer.stop();
          await pool.scrypt?.close();
        }
      })();
      return stopped;
    },
  };
}

/** The V1 ports' counters with the XMR ports' added (one /metrics view of every port). */
function stratumStats(
  pool: PoolRuntime,
  moneroPorts: readonly { xmr: MoneroPort }[],
): ReturnType<StratumService['stats']> {
  const rejected: Record<string, number> = { ...pool.stats.rejected };
  let connections = pool.sessions.size;
  let accepted = pool.stats.accepted;
  for (const { xmr } of moneroPorts) {
    const stats = xmr.server.stats;
    connections += xmr.server.connections;
    accepted += stats.accepted;
    for (const [kind, count] of Object.entries(stats.rejected))
      rejected[kind] = (rejected[kind] ?? 0) + count;
  }
  // The XMR ports share the process's ban list: its counts already cover them.
  return { connections, sharesAccepted: accepted, sharesRejected: rejected, bans: { ...pool.bans.counts } };
}

function onJob(pool: PoolRuntime, coin: CoinId, job: Job, tips: ChainTipsRepository): void {
  for (const session of pool.sessions) {
    if (session.working && session.port.coin === coin) session.sendJob(job);
  }
  const tpl = job.template;
  pool.events.emit('template.new', { coin, height: tpl.height, newTip: job.clean });
  if (!job.clean) return;
  tips
    .upsert({ coin, height: tpl.height - 1, hash: tpl.prevHashRpc, networkDifficulty: job.networkDifficulty })
    .catch((error: unknown) => pool.logger.warn({ err: error, coin }, 'could not record the chain tip'));
}

/**
 * Idle timeouts (a short deadline to subscribe and authorize, a long one for authorized miners),
 * the vardiff sweep for silent miners, expired bans, idle hashrate keys.
 */
function sweep(pool: PoolRuntime): void {
  const now = Date.now();
  const idleMs = pool.config.stratum.idleTimeoutSeconds * 1000;
  const authorizeMs = pool.config.stratum.authorizeTimeoutSeconds * 1000;
  for (const session of pool.sessions) {
    const ready = session.subscribed && session.logins.size > 0;
    if (!ready && now - session.connectedMs > authorizeMs) {
      session.close('not subscribed and authorized in time');
      continue;
    }
    if (now - session.lastReceivedMs > idleMs) {
      session.close('idle');
      continue;
    }
    if (!session.working) continue;
    const lower = session.vardiff.onIdle(now);
    if (lower !== undefined) session.announceDifficulty(lower);
  }
  pool.bans.sweep(now);
  for (const tracker of pool.hashrate.values()) tracker.prune(now);
}

/** client.reconnect to every miner, then close the ports (sockets still open after 2 s are cut). */
async function closeAll(pool: PoolRuntime, servers: StratumPort[]): Promise<void> {
  const closing: Promise<unknown>[] = servers.map((s) => s.close());
  // Shares hashed at the end of this turn are answered before the goodbye (replies keep their order).
  await new Promise((resolve) => setImmediate(resolve));
  for (const session of pool.sessions) {
    // A miner that already hung up makes the socket emit 'error' (EPIPE): that is a close too,
    // and must never stop the shutdown before accepted shares are flushed.
    const socket = session.socket;
    closing.push(socket.destroyed ? Promise.resolve() : once(socket, 'close').catch(() => undefined));
    socket.on('error', () => undefined);
    session.notify('client.reconnect', []);
    socket.end();
  }
  const cut = setTimeout(() => {
    for (const session of pool.sessions) session.close('shutdown');
  }, 2_000);
  await Promise.all(closing);
  clearTimeout(cut);
}
