// The Stratum service of one process: the shared kit (share writer, logins, bans, extranonces,
// hashrate) and every family's ports on it. It names no coin and no family: each family's chain
// opens its own ports (coins/<family>/stratum/ports.ts).
import { algorithmOf } from '@manjam/protocol';
import type { Logger } from 'pino';
import { connectionPlan, type CoinId, type Config } from '../config/core.js';
import type { Database } from '../db/index.js';
import type { PoolEvents } from '../events.js';
import { HashrateTracker, type LiveHashrate } from '../shares/hashrate.js';
import type { ShareSink } from '../shares/sink.js';
import { ShareWriter, shareWriterSettings } from '../shares/writer.js';
import { LoginResolver } from './auth.js';
import { BanList, type BanScope } from './bans.js';
import { OwnedSink } from './strangers.js';
import { ExtranonceAllocator } from './extranonce.js';
import type { FamilyFigure, FamilyPorts, FamilyPortsOpener, ServedPort } from './family-ports.js';
import type { StratumKit } from './kit.js';
import { WorkerAgentRecorder } from './worker-agents.js';

export interface StratumDeps {
  config: Config;
  db: Database;
  logger: Logger;
  events: PoolEvents;
  /** Each family's chain side in this process: every one opens its ports of `config.stratum.ports`. */
  chains: readonly FamilyPortsOpener[];
  /** Where shares go instead of the local journal (the JetStream share log of a regional node). */
  sink?: ShareSink;
}

export interface StratumService {
  ports(): ServedPort[];
  stats(): {
    connections: number;
    sharesAccepted: number;
    sharesRejected: Record<string, number>;
    bans: Record<BanScope, number>;
    /** Accepted shares not yet where accounting reads them (ShareSink.backlog). */
    sharesUnstored: number;
  };
  /** Every family's own figures of its ports now (family-ports.ts FamilyFigure), for /metrics and health. */
  figures(): FamilyFigure[];
  /** Live pool hashrate (H/s) over the last 10 minutes. */
  hashrate(coin: CoinId): number;
  /** Live figures of a worker ("<payee key>.<worker>"), a payee ("BTC:w:<address>", "BTC:u:<userId>") or 'pool'. */
  liveHashrate(coin: CoinId, key: string): LiveHashrate;
  /** The process's ban list (every port shares it): the operator console lists and lifts bans on it. */
  bans(): BanList;
  /** Reconnects clients, closes ports, flushes shares. */
  stop(): Promise<void>;
}

const SWEEP_MS = 5_000;

export async function startStratum(deps: StratumDeps): Promise<StratumService> {
  const { config, db, events } = deps;
  const logger = deps.logger.child({ module: 'stratum' });
  const writer: ShareSink =
    deps.sink ?? new ShareWriter({ db, events, logger, ...shareWriterSettings(config) });
  // Takes this process's share journal (a second process on it refuses to start) and writes what a crash left in it.
  await writer.start();
  const liveCoins = new Set<CoinId>(deps.chains.flatMap((c) => c.coins));
  for (const p of config.stratum.ports)
    if (!liveCoins.has(p.coin))
      logger.warn({ port: p.port, coin: p.coin }, 'no chain for this port: not opened');
  const resolver = new LoginResolver(db);
  const kit: StratumKit = {
    config,
    db,
    logger,
    events,
    // A stranger's refused shares under someone's worker are kept out of it (strangers.ts).
    writer: new OwnedSink(writer, resolver.owners),
    resolver,
    bans: new BanList(config.stratum.ban),
    allocator: new ExtranonceAllocator(undefined, config.stratum.instanceId),
    hashrate: new Map([...liveCoins].map((coin) => [coin, new HashrateTracker(algorithmOf(coin))] as const)),
    maxConnectionsPerPort: connectionPlan(config).stratum.maxConnectionsPerPort,
  };
  const families: FamilyPorts[] = [];
  try {
    for (const chain of deps.chains) families.push(await chain.openPorts(kit));
  } catch (error) {
    await Promise.all(families.map((f) => f.close()));
    await Promise.all(families.map((f) => f.release()));
    await writer.stop();
    throw error;
  }
  for (const family of families) family.start();
  const agents = new WorkerAgentRecorder(db, events, logger);
  // Expired bans and idle hashrate keys, for every port.
  const sweeper = setInterval(() => {
    const now = Date.now();
    kit.bans.sweep(now);
    for (const tracker of kit.hashrate.values()) tracker.prune(now);
  }, SWEEP_MS);
  sweeper.unref();

  let stopped: Promise<void> | undefined;
  return {
    ports: () => families.flatMap((f) => f.ports()),
    stats: () => {
      const rejected: Record<string, number> = {};
      let connections = 0;
      let accepted = 0;
      for (const stats of families.map((f) => f.stats())) {
        connections += stats.connections;
        accepted += stats.accepted;
        for (const [kind, count] of Object.entries(stats.rejected))
          rejected[kind] = (rejected[kind] ?? 0) + count;
      }
      // Every port shares the process's ban list: its counts cover them all.
      return {
        connections,
        sharesAccepted: accepted,
        sharesRejected: rejected,
        bans: { ...kit.bans.counts },
        sharesUnstored: writer.backlog(),
      };
    },
    figures: () => families.flatMap((f) => f.figures?.() ?? []),
    bans: () => kit.bans,
    hashrate: (coin) => kit.hashrate.get(coin)?.hashrate('pool', '10m', Date.now()) ?? 0,
    liveHashrate: (coin, key) =>
      kit.hashrate.get(coin)?.live(key, Date.now()) ?? {
        '10m': 0,
        '1h': 0,
        '24h': 0,
        bestDifficulty: 0,
        lastShareAt: null,
      },
    stop: () => {
      stopped ??= (async () => {
        clearInterval(sweeper);
        await agents.stop();
        try {
          await Promise.all(families.map((f) => f.close()));
        } finally {
          // Accepted shares are flushed whatever happened while closing the ports.
          await writer.stop();
          await Promise.all(families.map((f) => f.release()));
        }
      })();
      return stopped;
    },
  };
}
