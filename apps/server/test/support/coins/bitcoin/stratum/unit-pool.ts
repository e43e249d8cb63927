// A pool on a fake template source and an in-memory PGlite database, for unit tests.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig, type Config } from '../../../../../src/config/index.js';
import { openTestDatabase, type TestDatabase } from '../../../db.js';
import { PoolEvents } from '../../../../../src/events.js';
import { startStratum, type StratumService } from '../../../../../src/stratum/index.js';
import { StratumTestClient } from './client.js';
import { FakeTemplateSource } from './fake-source.js';
import { testLogger } from './harness.js';
import { chainOfSources } from '../../../../../src/coins/bitcoin/family.js';

export interface UnitPool {
  config: Config;
  database: TestDatabase;
  events: PoolEvents;
  source: FakeTemplateSource;
  stratum: StratumService;
  port: number;
  connect(): Promise<StratumTestClient>;
  close(): Promise<void>;
}

/** One in-memory database per test file (opening PGlite is the slow part). */
let shared: Promise<TestDatabase> | undefined;
export function sharedDatabase(): Promise<TestDatabase> {
  shared ??= openTestDatabase('pglite');
  return shared;
}

export async function closeSharedDatabase(): Promise<void> {
  const db = await shared;
  shared = undefined;
  await db?.drop();
}

export async function startUnitPool(
  stratum: Record<string, unknown> = {},
  source = new FakeTemplateSource(),
): Promise<UnitPool> {
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-unit-'));
  const database = await sharedDatabase();
  const config = parseConfig({
    dataDir,
    stratum: {
      host: '127.0.0.1',
      ports: [{ port: 0, coin: source.coin, vardiff: { start: 3e-10, min: 3e-10, max: 1e9 } }],
      ...stratum,
    },
  });
  const events = new PoolEvents();
  const service = await startStratum({
    config,
    db: database.db,
    logger: testLogger,
    events,
    chains: [chainOfSources([source])],
  });
  const port = service.ports()[0]?.port as number;
  const clients: StratumTestClient[] = [];
  return {
    config,
    database,
    events,
    source,
    stratum: service,
    port,
    async connect() {
      const client = await StratumTestClient.connect(port);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
