// npm run bench:sharelog — the JetStream share log's rates (prints figures, asserts nothing):
// acked shares/s one Stratum node's publisher gets from a real three-server cluster (stream
// replicas 3), and shares/s the core's consumer writes into the database.
//   cd bench && npx tsx sharelog.ts [--shares=N] [--turn=N] [--workers=N] [--db=pglite|postgres]
import { PoolEvents } from '../apps/server/src/events.js';
import { parseConfig } from '../apps/server/src/config/index.js';
import { ShareLogConsumer } from '../apps/server/src/sharelog/consumer.js';
import { ShareLogPublisher } from '../apps/server/src/sharelog/publisher.js';
import { connectShareLog } from '../apps/server/src/sharelog/stream.js';
import { newBatch } from '../apps/server/src/shares/batch.js';
import { newIdCache, persistBatch } from '../apps/server/src/shares/persist.js';
import { minerRef, type AcceptedShare } from '../apps/server/src/shares/types.js';
import { startNatsCluster } from '../apps/server/src/testing/nats-cluster.js';
import { pino } from 'pino';
import {
  chooseDatabase,
  openBenchDatabase,
  persistedShares,
  type BenchDatabaseKind,
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

const cluster = await startNatsCluster();
const kind = await chooseDatabase(args.get('db') as BenchDatabaseKind | undefined);
const database = await openBenchDatabase(kind);
try {
  const config = parseConfig({
    distributed: { natsUrl: cluster.servers.join(','), region: 'bench', replicas: 3 },
  }).distributed;
  report.line(
    `share log bench: ${int(SHARES)} shares, ${int(TURN)} per turn, ${int(WORKERS)} workers, 3 nats-server 2.9 (R3), ${kind}; load ${load()}`,
  );

  // 1. One Stratum node's publisher: turns of TURN shares as fast as JetStream confirms them
  // (the backlog bound, maxBacklogShares, holds the producer back as it would refuse miners).
  const publisher = new ShareLogPublisher({
    nc: await connectShareLog(config, logger, 'bench-node'),
    config,
    logger,
    nodeId: 'bench',
  });
  await publisher.start();
  const miners = Array.from({ length: WORKERS }, (_, i) =>
    minerRef('BTC', { kind: 'wallet', address: 'rb1qzyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg328fddy' }, `w${i}`),
  );
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
    for (let i = 0; i < n; i++) {
      const share: AcceptedShare = {
        miner: miners[(sent + i) % WORKERS]!,
        difficulty: 65_536,
        actualDifficulty: 70_000,
        networkDifficulty: 1e14,
        height: 900_000,
        scheme: 'pps-plus',
        atMs: Date.now(),
      };
      publisher.addAccepted(share, socket);
    }
    sent += n;
    await nextTurn();
  }
  while (acked < SHARES) await pause(1);
  const publishSeconds = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  report.line(
    `publish: ${int(SHARES / publishSeconds)} acked shares/s from one node (${int(publisher.stats.messages)} messages, ` +
      `${fixed(publishSeconds, 2)} s); ack latency per turn p50 ${fixed(percentile(sorted, 50))} ms, p99 ${fixed(percentile(sorted, 99))} ms; load ${load()}`,
  );
  await publisher.stop();

  // 2. The core's consumer drains the stream into the database.
  const consumer = new ShareLogConsumer({
    nc: await connectShareLog(config, logger, 'bench-core'),
    db: database.db,
    events: new PoolEvents(),
    config,
    logger,
  });
  const consumeStarted = performance.now();
  await consumer.start();
  while (consumer.stats.shares < SHARES) await pause(50);
  const consumeSeconds = (performance.now() - consumeStarted) / 1000;
  await consumer.stop();
  report.line(
    `consume: ${int(SHARES / consumeSeconds)} shares/s into ${kind} (${int(consumer.stats.messages)} messages, ` +
      `${int(consumer.stats.messages / consumeSeconds)} messages/s, ${fixed(consumeSeconds, 2)} s); ` +
      `rows in shares: ${int(await persistedShares(database.db))}; load ${load()}`,
  );

  // 3. Beside it, today's direct path: the local share writer's batches (a quarter second of
  // shares each) written by the same persistBatch, without JetStream.
  const direct = 20_000;
  const ids = newIdCache();
  const directStarted = performance.now();
  for (let done = 0; done < SHARES; done += direct) {
    const shares = Array.from({ length: Math.min(direct, SHARES - done) }, (_, i) => ({
      miner: miners[(done + i) % WORKERS]!,
      difficulty: 65_536,
      actualDifficulty: 70_000,
      networkDifficulty: 1e14,
      height: 900_000,
      scheme: 'pps-plus' as const,
      atMs: Date.now(),
    }));
    await persistBatch(database.db, { ...newBatch(), shares }, ids);
  }
  const directSeconds = (performance.now() - directStarted) / 1000;
  report.line(
    `direct: ${int(SHARES / directSeconds)} shares/s into ${kind} by persistBatch in batches of ${int(direct)} (the local writer's path); load ${load()}`,
  );
} finally {
  await database.close();
  await cluster.stop();
}
