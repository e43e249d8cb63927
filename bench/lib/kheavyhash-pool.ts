// The pool under test in the kheavyhash phase (forked by lib/kheavyhash-pool-handle.ts): the KAS
// port composed as coins/kaspa/stratum/ports.ts composes it in the pool — templates through the
// real KaspaTemplateSource (its job limit and job validity at the config's defaults) from the
// bench's FakeKaspad, every submit judged with kHeavyHash, accepted shares through the pool's
// ShareWriter (journal in a temporary data dir, then the database), logins through the
// LoginResolver, a hashrate tracker. Left out of ports.ts: recording each template's reward and
// tip (two upserts per job, none per share). Bans are off (the bench's miners are trusted).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { kaspaPowState } from '@manjam/protocol/kaspa';
import { parseConfig } from '../../apps/server/src/config/index.js';
import { KaspaStratumServer } from '../../apps/server/src/coins/kaspa/stratum/server.js';
import { KAS } from '../../apps/server/src/coins/kaspa/stratum/types.js';
import { KaspaTemplateSource } from '../../apps/server/src/coins/kaspa/template-source.js';
import { PoolEvents } from '../../apps/server/src/events.js';
import { HashrateTracker } from '../../apps/server/src/shares/hashrate.js';
import { ShareWriter, shareWriterSettings } from '../../apps/server/src/shares/writer.js';
import { LoginResolver } from '../../apps/server/src/stratum/auth.js';
import { openBenchDatabase, persistedShares, type BenchDatabaseKind } from './database.js';
import { FakeKaspad } from './fake-kaspad.js';
import { fastHashRate, SAMPLE_PRE_POW, SAMPLE_TIMESTAMP } from './kheavyhash-speed.js';

export type KheavyhashPoolRequest =
  | { type: 'usage'; persisted: boolean }
  /** NewBlockTemplate announcements a second from the fake node (0: none). */
  | { type: 'rate'; perSecond: number }
  /** Raw kHeavyHash in this process for `seconds` (the pool idle): the phase's baseline. */
  | { type: 'raw'; seconds: number }
  | { type: 'stop' };

export interface KheavyhashPoolUsage {
  type: 'usage';
  cpuUs: number;
  rss: number;
  accepted: number;
  rejected: Record<string, number>;
  /** Accepted shares in the database, -1 when not asked. */
  persisted: number;
  connections: number;
  jobsSent: number;
  /** The fake node's announcements and the source's jobs. */
  announced: number;
  jobs: number;
}

export type KheavyhashPoolMessage =
  | { type: 'ready'; port: number }
  | KheavyhashPoolUsage
  | { type: 'rate' }
  | { type: 'raw'; perCpuSecond: number; perSecond: number }
  | { type: 'error'; message: string };

/**
 * Kaspa difficulty 2^-32 puts the share target at 2^256: every nonce is a share, so the miners
 * need no hashing of their own and the pool still hashes every submit in full (kHeavyHash).
 */
export const KHEAVYHASH_BENCH_DIFFICULTY = 2 ** -32;

function send(message: KheavyhashPoolMessage): void {
  process.send?.(message);
}

async function main(kind: BenchDatabaseKind): Promise<void> {
  const database = await openBenchDatabase(kind);
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-bench-kas-'));
  const logger = pino({ level: 'silent' });
  const config = parseConfig({
    dataDir,
    log: { level: 'silent' },
    chains: { KAS: { network: 'mainnet', rpcAddress: '127.0.0.1:16110', poolAddress: 'kaspa:bench' } },
    stratum: { host: '127.0.0.1', maxConnectionsPerIp: 100_000, ban: { enabled: false } },
  });
  const events = new PoolEvents();
  const writer = new ShareWriter({ db: database.db, events, logger, ...shareWriterSettings(config) });
  await writer.start();
  const node = new FakeKaspad();
  const source = new KaspaTemplateSource({
    node,
    payAddress: 'kaspa:bench',
    logger,
    maxJobsPerSecond: config.chains.KAS.maxJobsPerSecond,
    jobValidMs: config.chains.KAS.jobValidSeconds * 1000,
  });
  await source.start();
  const resolver = new LoginResolver(database.db);
  const server = new KaspaStratumServer({
    port: 0,
    host: config.stratum.host,
    network: 'mainnet',
    scheme: 'pps-plus',
    vardiff: {
      start: KHEAVYHASH_BENCH_DIFFICULTY,
      min: KHEAVYHASH_BENCH_DIFFICULTY,
      max: KHEAVYHASH_BENCH_DIFFICULTY,
      targetSeconds: 15,
      retargetSeconds: 86_400,
      variancePercent: 30,
    },
    stratum: config.stratum,
    source,
    sink: writer,
    logger,
    pool: {
      resolveAccount: (login) => resolver.resolve(login, KAS, { network: config.chains.KAS.network }),
      hashrate: new HashrateTracker('kheavyhash'),
      workerChanged: () => undefined,
    },
  });
  const port = await server.listen();

  const stop = async (): Promise<void> => {
    node.close();
    await server.close().catch(() => undefined);
    await source.stop();
    await writer.stop();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('message', (request: KheavyhashPoolRequest) => {
    if (request.type === 'stop') return void stop();
    if (request.type === 'raw') {
      const state = kaspaPowState(SAMPLE_PRE_POW, SAMPLE_TIMESTAMP);
      fastHashRate(state, 0.3); // warm-up: the JIT compiles the hot path
      const raw = fastHashRate(state, request.seconds);
      return send({ type: 'raw', perCpuSecond: raw.perCpuSecond, perSecond: raw.perSecond });
    }
    if (request.type === 'rate') {
      node.setRate(request.perSecond);
      return send({ type: 'rate' });
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
        jobsSent: server.stats.jobsSent,
        announced: node.figures.announced,
        jobs: source.figures.jobs,
      }),
    );
  });
  process.on('disconnect', () => void stop());
  send({ type: 'ready', port });
}

const [kind] = process.argv.slice(2);
if (kind === 'pglite' || kind === 'postgres') {
  main(kind).catch((error: unknown) => {
    send({ type: 'error', message: (error as Error).stack ?? String(error) });
    process.exit(1);
  });
} else {
  process.stderr.write('usage: kheavyhash-pool.ts <pglite|postgres>\n');
  process.exit(2);
}
