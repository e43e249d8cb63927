// The pool under test in the randomx phase (forked by lib/randomx-phase.ts): a real
// MoneroStratumServer composed as coins/monero/stratum/start.ts composes it in the pool — templates
// from the real MoneroTemplateSource (here polling the bench's fake monerod), a RandomXPool of
// `threads` threads in light mode whose current seed is prepared before the port listens,
// shares through the pool's ShareWriter (journal in a temporary data dir, then the database:
// PostgreSQL or PGlite in this process), account logins through the LoginResolver, a hashrate
// tracker and pool events. Left out of start.ts: recording each template's reward and tip
// (two upserts per template, none per share), and sharing the ban list and extranonce space
// with V1 ports (there are none here). Bans are off (the bench's miners are trusted).
//
// It owns its RandomXPool, so the memory-per-epoch step can tell when a seed's cache is ready:
// after the template announcing the next seed arrives (the server then prepares it, as in
// production), `randomx.prepare(seed)` resolves once that cache is built (a second thread asking
// for it waits on the addon's lock), and one hash per thread under the current seed then runs
// behind any `drop` the pool sent each thread (their messages are handled in order).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { algorithmOf } from '@manjam/protocol';
import { moneroHashingBlob, moneroNetworkOf } from '@manjam/protocol/monero';
import { RandomXPool } from '@manjam/randomx';
import { pino } from 'pino';
import { parseConfig } from '../../apps/server/src/config/index.js';
import { MoneroRpcClient } from '../../apps/server/src/coins/monero/rpc.js';
import { PoolEvents } from '../../apps/server/src/events.js';
import { HashrateTracker } from '../../apps/server/src/shares/hashrate.js';
import { ShareWriter, shareWriterSettings } from '../../apps/server/src/shares/writer.js';
import { LoginResolver } from '../../apps/server/src/stratum/auth.js';
import { MoneroStratumServer, XMR } from '../../apps/server/src/coins/monero/stratum/server.js';
import { MoneroTemplateSource } from '../../apps/server/src/coins/monero/stratum/template-source.js';
import { openBenchDatabase, persistedShares, type BenchDatabaseKind } from './database.js';
import { XMR_POOL_ADDRESS } from './fake-monerod.js';

export type RandomXPoolRequest =
  | { type: 'usage'; persisted: boolean }
  /** Wait for the template announcing `nextSeed`, for its cache, then report RSS. */
  | { type: 'epoch'; nextSeed: string }
  | { type: 'stop' };

export interface RandomXPoolUsage {
  type: 'usage';
  cpuUs: number;
  rss: number;
  accepted: number;
  rejected: Record<string, number>;
  /** Accepted shares in the database, -1 when not asked. */
  persisted: number;
  connections: number;
}

export type RandomXPoolMessage =
  | {
      type: 'ready';
      port: number;
      /** RSS before the first seed's cache was built, and after (with one VM). */
      rssNoSeed: number;
      rssOneSeed: number;
      prepareMs: number;
    }
  | RandomXPoolUsage
  | { type: 'epoch'; rss: number; liveSeeds: number; waitedMs: number }
  | { type: 'error'; message: string };

/** Every hash meets difficulty 1: each honest share is accepted and fully checked (RandomX). */
const SHARE_DIFFICULTY = 1;

function send(message: RandomXPoolMessage): void {
  process.send?.(message);
}

async function main(kind: BenchDatabaseKind, daemonUrl: string, threads: number): Promise<void> {
  const database = await openBenchDatabase(kind);
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-bench-rx-'));
  const logger = pino({ level: 'silent' });
  const config = parseConfig({
    dataDir,
    log: { level: 'silent' },
    // get_info is polled every chains.XMR.pollIntervalMs (default 1 s), as in production.
    chains: { XMR: { network: 'mainnet', daemonUrl, poolAddress: XMR_POOL_ADDRESS } },
    stratum: { host: '127.0.0.1', maxConnectionsPerIp: 100_000, ban: { enabled: false } },
  });
  const events = new PoolEvents();
  const writer = new ShareWriter({
    db: database.db,
    events,
    logger,
    ...shareWriterSettings(config),
  });
  await writer.start();
  const source = new MoneroTemplateSource({
    daemon: new MoneroRpcClient(daemonUrl, config.chains.XMR.rpcTimeoutMs),
    address: XMR_POOL_ADDRESS,
    logger,
    pollMs: config.chains.XMR.pollIntervalMs,
    // A frozen template: its pool never changes, so no same-tip refresh.
    mempoolRefreshMs: 0,
  });
  await source.start();
  const rssNoSeed = process.memoryUsage.rss();
  const randomx = new RandomXPool({ threads, mode: 'light', keepSeeds: 2 });
  const resolver = new LoginResolver(database.db);
  const server = new MoneroStratumServer({
    port: 0,
    host: config.stratum.host,
    network: moneroNetworkOf(config.chains.XMR.network),
    scheme: 'pps-plus',
    vardiff: {
      start: SHARE_DIFFICULTY,
      min: SHARE_DIFFICULTY,
      max: SHARE_DIFFICULTY,
      targetSeconds: 15,
      retargetSeconds: 86_400,
      variancePercent: 30,
    },
    stratum: config.stratum,
    source,
    randomx,
    sink: writer,
    logger,
    pool: {
      resolveAccount: (login) => resolver.resolve(login, XMR, { network: config.chains.XMR.network }),
      hashrate: new HashrateTracker(algorithmOf(XMR)),
      events,
    },
  });
  const started = performance.now();
  await randomx.prepare((source.current ?? fail('no template')).seedHash);
  const prepareMs = performance.now() - started;
  const rssOneSeed = process.memoryUsage.rss();
  const port = await server.listen();

  const stop = async () => {
    await server.close().catch(() => undefined);
    await randomx.close();
    await source.stop();
    await writer.stop();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('message', (request: RandomXPoolRequest) => {
    if (request.type === 'stop') return void stop();
    if (request.type === 'epoch') {
      epoch(source, randomx, request.nextSeed).then(
        (figures) => send({ type: 'epoch', ...figures }),
        (error: unknown) => send({ type: 'error', message: String(error) }),
      );
      return;
    }
    const cpu = process.cpuUsage();
    const persisted = request.persisted ? persistedShares(database.db) : Promise.resolve(-1);
    void persisted.then((n) =>
      send({
        type: 'usage',
        cpuUs: cpu.user + cpu.system,
        rss: process.memoryUsage.rss(),
        accepted: server.stats.accepted,
        rejected: { ...server.stats.rejected },
        persisted: n,
        connections: server.connections,
      }),
    );
  });
  process.on('disconnect', () => void stop());
  send({ type: 'ready', port, rssNoSeed, rssOneSeed, prepareMs });
}

function fail(message: string): never {
  throw new Error(message);
}

/** After the fake node moved its tip: the template announcing `nextSeed`, its cache ready, RSS. */
async function epoch(
  source: MoneroTemplateSource,
  randomx: RandomXPool,
  nextSeed: string,
): Promise<{ rss: number; liveSeeds: number; waitedMs: number }> {
  const started = performance.now();
  const announced = () =>
    source.current?.nextSeedHash && Buffer.from(source.current.nextSeedHash).toString('hex') === nextSeed;
  if (!announced()) await new Promise<void>((resolve) => source.onTemplate(() => announced() && resolve()));
  await randomx.prepare(Uint8Array.from(Buffer.from(nextSeed, 'hex')));
  const template = source.current ?? fail('no template');
  const blob = moneroHashingBlob(template.blob, template.block);
  await Promise.all(Array.from({ length: randomx.threads }, () => randomx.hash(template.seedHash, blob)));
  return {
    rss: process.memoryUsage.rss(),
    liveSeeds: randomx.liveSeeds().length,
    waitedMs: performance.now() - started,
  };
}

const [kind, url, threads] = process.argv.slice(2);
if ((kind === 'pglite' || kind === 'postgres') && url && Number(threads) > 0) {
  main(kind, url, Number(threads)).catch((error: unknown) => {
    send({ type: 'error', message: (error as Error).stack ?? String(error) });
    process.exit(1);
  });
} else {
  process.stderr.write('usage: randomx-pool.ts <pglite|postgres> <monerod url> <threads>\n');
  process.exit(2);
}
