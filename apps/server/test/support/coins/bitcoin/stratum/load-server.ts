// The server side of load.ts: a pool on a frozen template, backed by PostgreSQL (a fresh schema).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../../../../src/config/index.js';
import { openTestDatabase } from '../../../db.js';
import { PoolEvents } from '../../../../../src/events.js';
import { startStratum } from '../../../../../src/stratum/index.js';
import { FakeTemplateSource, frozenTemplate } from './fake-source.js';
import { testLogger } from './harness.js';
import { chainOfSources } from '../../../../../src/coins/bitcoin/family.js';

const coin = process.argv[2] === 'LTC' ? 'LTC' : 'BTC';
const database = await openTestDatabase('postgres');
const address =
  coin === 'BTC'
    ? 'rb1qzyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg328fddy'
    : 'rltc1qxvenxvenxvenxvenxvenxvenxvenxvenuxr9sr';
const source = new FakeTemplateSource(coin, address, frozenTemplate());
const start = coin === 'BTC' ? 3e-10 : 2e-5;
const config = parseConfig({
  dataDir: await mkdtemp(join(tmpdir(), 'manjam-load-')),
  stratum: {
    host: '127.0.0.1',
    maxConnectionsPerIp: 100_000,
    seats: { perAddress: 100_000 },
    ports: [{ port: 0, coin, vardiff: { start, min: start, max: 1e12, retargetSeconds: 3_600 } }],
  },
});
const stratum = await startStratum({
  config,
  db: database.db,
  logger: testLogger,
  events: new PoolEvents(),
  chains: [chainOfSources([source])],
});
process.on('message', (what) => {
  if (what === 'usage') {
    const cpu = process.cpuUsage();
    process.send?.({ cpu: cpu.user + cpu.system, rss: process.memoryUsage().rss, stats: stratum.stats() });
  }
});
process.on('SIGTERM', () => {
  void stratum
    .stop()
    .then(() => database.drop())
    .then(() => process.exit(0));
});
process.send?.({ port: stratum.ports()[0]?.port });
