// The pool under test, run as its own process (forked by stratum.ts): the real startStratum with
// a BTC (SHA-256d) and an LTC (Scrypt) port, each on a frozen mainnet template, and a real
// database. Share difficulty is frozen at the protocol minimum (vardiff start = min = max) so
// almost every hash is a valid share; a third port (BTC) asks a difficulty no random nonce meets,
// for the rejected-shares phase. Bans are off: the bench's miners are trusted. Answers usage
// requests (CPU time of the whole process, RSS, share counters) over IPC. Its PostgreSQL
// connections carry the application_name the orchestrator puts in PGAPPNAME.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIN_SHARE_DIFFICULTY, algorithmOf } from '@manjam/protocol';
import { pino } from 'pino';
import { parseConfig } from '../../apps/server/src/config/index.js';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { PoolEvents } from '../../apps/server/src/events.js';
import { RuntimeMonitor } from '../../apps/server/src/http/metrics-runtime.js';
import { startStratum } from '../../apps/server/src/stratum/index.js';
import { countingDatabase } from './counting-database.js';
import { openBenchDatabase, persistedShares, type BenchDatabaseKind } from './database.js';
import { FrozenTemplateSource } from './frozen-source.js';
import type { ServerMessage, ServerRequest, ServerUsage } from './messages.js';
import { chainOfSources } from '../../apps/server/src/coins/bitcoin/family.js';

function send(message: ServerMessage): void {
  process.send?.(message);
}

const COINS: BitcoinFamilyCoin[] = ['BTC', 'LTC'];
/** The reject port's share difficulty: a random nonce meets it once in 2^72 hashes. */
const REJECT_DIFFICULTY = 2 ** 40;

function frozenPort(coin: BitcoinFamilyCoin) {
  const difficulty = MIN_SHARE_DIFFICULTY[algorithmOf(coin)];
  return {
    port: 0,
    coin,
    vardiff: { start: difficulty, min: difficulty, max: difficulty, retargetSeconds: 86_400 },
  };
}

async function main(kind: BenchDatabaseKind): Promise<void> {
  const database = await openBenchDatabase(kind);
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-bench-'));
  const config = parseConfig({
    dataDir,
    log: { level: 'silent' },
    stratum: {
      host: '127.0.0.1',
      maxConnectionsPerIp: 100_000,
      seats: { perAddress: 100_000 },
      ban: { enabled: false },
      ports: [
        ...COINS.map(frozenPort),
        {
          port: 0,
          coin: 'BTC',
          vardiff: {
            start: REJECT_DIFFICULTY,
            min: REJECT_DIFFICULTY,
            max: REJECT_DIFFICULTY,
            retargetSeconds: 86_400,
          },
        },
      ],
    },
  });
  const sources = COINS.map((coin) => new FrozenTemplateSource(coin));
  const counted = countingDatabase(database.db);
  const stratum = await startStratum({
    config,
    db: counted.db,
    logger: pino({ level: 'silent' }),
    events: new PoolEvents(),
    chains: [chainOfSources(sources)],
  });
  const stop = async () => {
    // stratum.stop() can reject when a miner's socket errors during shutdown: say so, still close.
    await stratum
      .stop()
      .catch((error: unknown) =>
        process.stderr.write(`pool process: stratum.stop() failed: ${String(error)}\n`),
      );
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  const runtime = new RuntimeMonitor(0);
  process.on('message', (request: ServerRequest) => {
    if (request.type === 'stop') {
      void stop();
      return;
    }
    const loop = runtime.current();
    if (request.resetLoop) runtime.reset();
    if (request.gc) globalThis.gc?.();
    const cpu = process.cpuUsage();
    const stats = stratum.stats();
    const persisted = request.persisted ? persistedShares(database.db) : Promise.resolve(-1);
    void persisted.then((n) =>
      send({
        type: 'usage',
        cpuUs: cpu.user + cpu.system,
        ...memory(),
        connections: stats.connections,
        accepted: stats.sharesAccepted,
        rejected: stats.sharesRejected,
        persisted: n,
        blocksSubmitted: sources.reduce((n, source) => n + source.submittedBlocks.length, 0),
        writes: structuredClone(counted.writes),
        loop,
      }),
    );
  });
  process.on('disconnect', () => void stop());
  // Ports listen in the configured order: BTC, LTC, then the BTC reject port.
  const [btc, ltc, reject] = stratum.ports().map((p) => p.port);
  send({
    type: 'ready',
    ports: { BTC: btc ?? 0, LTC: ltc ?? 0 },
    rejectPort: reject ?? 0,
    schema: database.schema,
  });
}

const [dbArg] = process.argv.slice(2);
if (dbArg === 'pglite' || dbArg === 'postgres') {
  main(dbArg).catch((error: unknown) => {
    send({ type: 'error', message: (error as Error).stack ?? String(error) });
    process.exit(1);
  });
} else {
  process.stderr.write('usage: pool-process.ts <pglite|postgres>\n');
  process.exit(2);
}

function memory(): Pick<ServerUsage, 'rss' | 'heapUsed' | 'heapTotal' | 'external'> {
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external };
}
