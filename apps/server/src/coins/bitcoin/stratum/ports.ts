// The Bitcoin family's Stratum V1 ports (BTC SHA-256d, LTC Scrypt) on the shared kit: one job
// manager per coin fed by its template source, the V1 sessions, their hashing queues and sweep.
import { once } from 'node:events';
import { algorithmOf, isBitcoinFamily, MIN_SHARE_DIFFICULTY, type BitcoinFamilyCoin } from '@manjam/protocol';
import type { CoinId, PayoutScheme, StratumPortConfig } from '../../../config/index.js';
import { ChainTipsRepository } from '../../../db/repositories/chain-tips.js';
import { BanJudge } from '../../../stratum/ban-judge.js';
import { FairWork } from '../../../stratum/fair-work.js';
import { listenerFigures, seatLimits, seatPort } from '../../../stratum/listener.js';
import type { StratumKit } from '../../../stratum/kit.js';
import { rejectionCounts } from '../../../stratum/rejections.js';
import { ShareBook } from '../../../stratum/share-book.js';
import type { FamilyFigure, FamilyPorts } from '../../family.js';
import type { TemplateSource } from '../source.js';
import { watchCoinAvailability } from './coin-availability.js';
import type { PoolRuntime, StratumSession, SubmitContext } from './context.js';
import { JobManager, type Job } from './jobs.js';
import { SCRYPT_IN_FLIGHT_PER_THREAD, ScryptPool } from './pow-pool.js';
import { StratumPort } from './server.js';
import { Sha256dQueue } from './sha256d-queue.js';
import { sha256dHashed, sha256dRefused } from './submit.js';
import { Sv2Ports } from '../stratum-v2/ports.js';
import type { Sv2Port } from '../stratum-v2/port.js';

const SWEEP_MS = 5_000;

/** A listening port of either dialect. */
interface ListeningPort {
  coin: CoinId;
  port: number;
  tls: boolean;
  scheme: PayoutScheme;
  protocol: 'v1' | 'v2';
  server: StratumPort | Sv2Port;
}

/** A port of the V1 (Bitcoin-family) dialect, or of Stratum V2 (`protocol: "v2"`, SHA-256d coins). */
type V1PortConfig = StratumPortConfig & { coin: BitcoinFamilyCoin };

export async function openBitcoinPorts(
  kit: StratumKit,
  sources: readonly TemplateSource[],
): Promise<FamilyPorts> {
  const { config, logger } = kit;
  const served = new Set<CoinId>(sources.map((s) => s.coin));
  const configs = config.stratum.ports.filter(
    (p): p is V1PortConfig => isBitcoinFamily(p.coin) && served.has(p.coin),
  );
  const sessions = new Set<StratumSession>();
  const scrypt = configs.some((p) => algorithmOf(p.coin) === 'scrypt') ? new ScryptPool() : undefined;
  const judge = new BanJudge(kit.bans, sessions, logger, (session: StratumSession) => [
    ...session.logins.keys(),
  ]);
  const stats = { accepted: 0, rejected: rejectionCounts() };
  const pool: PoolRuntime = {
    config,
    logger,
    events: kit.events,
    writer: kit.writer,
    allocator: kit.allocator,
    bans: kit.bans,
    resolver: kit.resolver,
    hashrate: kit.hashrate,
    scrypt,
    scryptWork: scrypt
      ? new FairWork<StratumSession>(config.stratum.powQueue, scrypt.size * SCRYPT_IN_FLIGHT_PER_THREAD)
      : undefined,
    sha256d: new Sha256dQueue<SubmitContext>(sha256dHashed, sha256dRefused),
    sessions,
    stats,
    book: new ShareBook(stats, kit.writer, judge),
    pendingBlocks: new Set(),
  };
  const managers = new Map<CoinId, JobManager>();
  const tips = new ChainTipsRepository(kit.db);
  for (const source of sources) {
    const manager = new JobManager(source, {
      poolTag: config.stratum.poolTag,
      extranonce2Size: config.stratum.extranonce2Size,
      logger,
    });
    manager.onJob((job) => onJob(pool, source.coin, job, tips));
    managers.set(source.coin, manager);
  }
  const listening: ListeningPort[] = [];
  const v2 = new Sv2Ports(config, logger);
  try {
    for (const p of configs) {
      const algorithm = algorithmOf(p.coin);
      const source = sources.find((s) => s.coin === p.coin) as TemplateSource;
      const runtime = {
        pool,
        config: p,
        coin: p.coin,
        scheme: p.scheme,
        algorithm,
        params: source.params,
        jobs: managers.get(p.coin) as JobManager,
        minDifficulty: Math.max(p.vardiff.min, MIN_SHARE_DIFFICULTY[algorithm]),
      };
      const server = p.protocol === 'v2' ? await v2.open(runtime) : new StratumPort(runtime);
      seatPort(server.server, seatLimits(config.stratum, kit.maxConnectionsPerPort));
      const port = await server.listen(config.stratum.host);
      listening.push({ coin: p.coin, port, tls: server.tls, scheme: p.scheme, protocol: p.protocol, server });
      logger.info(
        { coin: p.coin, port, tls: server.tls, scheme: p.scheme, protocol: p.protocol },
        'stratum port listening',
      );
    }
  } catch (error) {
    await Promise.all(listening.map((l) => l.server.close()));
    await scrypt?.close();
    throw error;
  }

  let stopWatchingNodes: () => void = () => undefined;
  let sweeper: NodeJS.Timeout | undefined;
  return {
    ports: () =>
      listening.map(({ coin, port, tls, scheme, protocol, server }) => {
        const authorityKey = protocol === 'v2' ? v2.authorityPublicKey : undefined;
        const figures = listenerFigures(server.server, algorithmOf(coin));
        return { coin, port, tls, scheme, protocol, ...figures, ...(authorityKey ? { authorityKey } : {}) };
      }),
    stats: () => ({
      // A V2 channel is a session of the share path; its connection is counted once, by v2.
      connections: sessions.size - v2.channels() + v2.connections(),
      accepted: pool.stats.accepted,
      rejected: { ...pool.stats.rejected },
    }),
    figures: () => v2Figures(v2.stats()),
    start: () => {
      for (const manager of managers.values()) manager.start();
      // After the first jobs: a coin whose nodes are already silent starts paused.
      stopWatchingNodes = watchCoinAvailability(pool, sources, managers);
      sweeper = setInterval(() => {
        sweep(pool);
        for (const manager of managers.values()) manager.trim();
      }, SWEEP_MS);
      sweeper.unref();
    },
    close: async () => {
      clearInterval(sweeper);
      stopWatchingNodes();
      for (const manager of managers.values()) manager.stop();
      await closeAll(
        pool,
        listening.map((l) => l.server),
      );
      await Promise.allSettled([...pool.pendingBlocks]);
    },
    release: async () => {
      await scrypt?.close();
    },
  };
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

/** Idle timeouts (a short deadline to subscribe and authorize, a long one for authorized miners), the vardiff sweep for silent miners. */
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
}

/** client.reconnect to every miner, then close the ports (sockets still open after 2 s are cut). */
/**
 * The Stratum V2 ports' figures: open V2 connections (also in the family's connections), the
 * mining channels on them, and connections closed for what they sent, by kind.
 */
function v2Figures(stats: {
  connections: number;
  channels: number;
  faults: Record<string, number>;
}): FamilyFigure[] {
  return [
    { name: 'manjam_stratum_v2_connections', labels: {}, value: stats.connections },
    { name: 'manjam_stratum_v2_channels', labels: {}, value: stats.channels },
    ...Object.entries(stats.faults).map(([kind, value]) => ({
      name: 'manjam_stratum_v2_faults_total',
      labels: { kind },
      value,
    })),
  ];
}

async function closeAll(pool: PoolRuntime, servers: (StratumPort | Sv2Port)[]): Promise<void> {
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
