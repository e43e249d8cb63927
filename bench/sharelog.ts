// npm run bench:sharelog — the JetStream share log's rates (prints figures, asserts nothing):
// acked shares/s one Stratum node's publisher gets from a real three-server cluster (stream
// replicas 3); shares/s the core's consumer writes into the database as slot rows, alone and end
// to end (publisher and consumer at once); beside it today's direct path (a row per share); and
// for each, the database rows written per 1,000 shares.
//   cd bench && npx tsx sharelog.ts [--shares=N] [--turn=N] [--workers=N] [--db=pglite|postgres]
import type { NatsConnection } from 'nats';
import { pino } from 'pino';
import { PoolEvents } from '../apps/server/src/events.js';
import { parseConfig } from '../apps/server/src/config/index.js';
import type { Database } from '../apps/server/src/db/index.js';
import { ShareLogConsumer } from '../apps/server/src/sharelog/consumer.js';
import { ShareLogPublisher } from '../apps/server/src/sharelog/publisher.js';
import { connectShareLog, type DistributedConfig } from '../apps/server/src/sharelog/stream.js';
import { newBatch } from '../apps/server/src/shares/batch.js';
import { newIdCache, persistBatch } from '../apps/server/src/shares/persist.js';
import { minerRef, type AcceptedShare, type MinerRef } from '../apps/server/src/shares/types.js';
import { startNatsCluster } from '../apps/server/test/support/nats-cluster.js';
import {
  chooseDatabase,
  openBenchDatabase,
  persistedShares,
  type BenchDatabaseKind,
  type TableWrites,
} from './lib/database.js';
import { fixed, int, load, percentile, Report } from './lib/report.js';

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v = ''] = a.replace(/^--/, '').split('=');
    return [k, v] as const;
  }),
);
const SHARES = Number(args.get('shares') ?? 300_000);
const TURN = Number(args.get('turn') ?? 500);
const WORKERS = Number(args.get('workers') ?? 1_000);
const logger = pino({ level: 'warn' });
const report = new Report(`results/sharelog-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`);
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
/** Waiting for acks without spinning (the three servers share the machine's cores). */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const miners: MinerRef[] = Array.from({ length: WORKERS }, (_, i) =>
  minerRef('BTC', { kind: 'wallet', address: 'rb1qzyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg328fddy' }, `w${i}`),
);
const shareOf = (n: number): AcceptedShare => ({
  miner: miners[n % WORKERS] as MinerRef,
  difficulty: 65_536,
  actualDifficulty: 70_000,
  networkDifficulty: 1e14,
  height: 900_000,
  scheme: 'pps-plus',
  atMs: Date.now(),
});

/**
 * One Stratum node's publisher sends SHARES in turns of TURN as fast as JetStream confirms them
 * (the backlog bound, maxBacklogShares, holds the producer back as it would refuse miners).
 */
async function publishAll(
  config: DistributedConfig,
): Promise<{ seconds: number; messages: number; latencies: Float64Array }> {
  const publisher = new ShareLogPublisher({
    nc: await connectShareLog(config, logger, 'bench-node'),
    config,
    logger,
    nodeId: 'bench',
  });
  await publisher.start();
  const latencies: number[] = [];
  let acked = 0;
  const started = performance.now();
  for (let sent = 0; sent < SHARES;) {
    if (publisher.refusal() !== undefined) {
      await pause(1);
      continue;
    }
    const at = performance.now();
    const n = Math.min(TURN, SHARES - sent);
    const socket = {
      cork: () => undefined,
      uncork: () => {
        latencies.push(performance.now() - at);
        acked += n;
      },
      destroy: () => undefined,
    };
    for (let i = 0; i < n; i++) publisher.addAccepted(shareOf(sent + i), socket);
    sent += n;
    await nextTurn();
  }
  while (acked < SHARES) await pause(1);
  const seconds = (performance.now() - started) / 1000;
  await publisher.stop();
  return { seconds, messages: publisher.stats.messages, latencies: Float64Array.from(latencies).sort() };
}

async function startConsumer(config: DistributedConfig, db: Database): Promise<ShareLogConsumer> {
  const consumer = new ShareLogConsumer({
    nc: await connectShareLog(config, logger, 'bench-core'),
    db,
    events: new PoolEvents(),
    config,
    logger,
  });
  await consumer.start();
  return consumer;
}

/** "N rows per 1,000 shares (shares a, share_stats b, workers c, share_batches d)". */
function rowsPer1000(writes: TableWrites | undefined): string {
  if (!writes) return 'rows written: not counted on PGlite';
  const tables = ['shares', 'share_stats', 'workers', 'share_batches'];
  const per = (n: number) => fixed((n / SHARES) * 1_000, 1);
  const total = tables.reduce((sum, t) => sum + (writes.get(t) ?? 0), 0);
  return (
    `${per(total)} rows written per 1,000 shares (` +
    tables.map((t) => `${t} ${per(writes.get(t) ?? 0)}`).join(', ') +
    `; ${int(writes.get('shares') ?? 0)} rows in shares)`
  );
}

const cluster = await startNatsCluster();
const kind = await chooseDatabase(args.get('db') as BenchDatabaseKind | undefined);
let admin: NatsConnection | undefined;
try {
  const config = parseConfig({
    distributed: { natsUrl: cluster.servers.join(','), region: 'bench', replicas: 3 },
  }).distributed;
  report.line(
    `share log bench: ${int(SHARES)} shares, ${int(TURN)} per turn, ${int(WORKERS)} workers, 3 nats-server 2.9 (R3), ${kind}; load ${load()}`,
  );

  // 1. The publisher alone.
  const published = await publishAll(config);
  report.line(
    `publish: ${int(SHARES / published.seconds)} acked shares/s from one node (${int(published.messages)} messages, ` +
      `${fixed(published.seconds, 2)} s); ack latency per turn p50 ${fixed(percentile(published.latencies, 50))} ms, ` +
      `p99 ${fixed(percentile(published.latencies, 99))} ms; load ${load()}`,
  );

  // 2. The core's consumer alone drains the stream into the database as slot rows.
  const drained = await openBenchDatabase(kind);
  const consumer = await startConsumer(config, drained.db);
  const consumeStarted = performance.now();
  while (consumer.stats.shares < SHARES) await pause(50);
  const consumeSeconds = (performance.now() - consumeStarted) / 1000;
  await consumer.stop();
  const stored = await persistedShares(drained.db);
  report.line(
    `consume (slot rows): ${int(SHARES / consumeSeconds)} shares/s into ${kind} (${int(consumer.stats.messages)} messages, ` +
      `${fixed(consumeSeconds, 2)} s; ${int(stored)} shares stored); ${rowsPer1000(await drained.close())}; load ${load()}`,
  );

  // 3. End to end: the consumer runs while the node publishes (on an emptied stream), from the
  // first share sent to the last one stored.
  admin = await connectShareLog(config, logger, 'bench-admin');
  await (await admin.jetstreamManager()).streams.delete(config.stream);
  const live = await openBenchDatabase(kind);
  const endToEnd = await startConsumer(config, live.db);
  const e2eStarted = performance.now();
  await publishAll(config);
  while (endToEnd.stats.shares < SHARES) await pause(10);
  const e2eSeconds = (performance.now() - e2eStarted) / 1000;
  await endToEnd.stop();
  report.line(
    `end to end (slot rows): ${int(SHARES / e2eSeconds)} shares/s acked by JetStream and stored in ${kind} ` +
      `(${fixed(e2eSeconds, 2)} s); ${rowsPer1000(await live.close())}; load ${load()}`,
  );

  // 4. Beside it, today's direct path: the local share writer's batches (a quarter second of
  // shares each) written by the same persistBatch, a row per share, without JetStream.
  const direct = await openBenchDatabase(kind);
  const batchSize = 20_000;
  const ids = newIdCache();
  const directStarted = performance.now();
  for (let done = 0; done < SHARES; done += batchSize) {
    const shares = Array.from({ length: Math.min(batchSize, SHARES - done) }, (_, i) => shareOf(done + i));
    await persistBatch(direct.db, { ...newBatch(), id: `direct-${done}`, shares }, ids);
  }
  const directSeconds = (performance.now() - directStarted) / 1000;
  report.line(
    `direct (a row per share): ${int(SHARES / directSeconds)} shares/s into ${kind} by persistBatch in batches of ` +
      `${int(batchSize)} (the local writer's path); ${rowsPer1000(await direct.close())}; load ${load()}`,
  );
} finally {
  await admin?.close();
  await cluster.stop();
}
