// A Stratum pool in its own process, for the crash drills (shares/crash.int.test.ts): one BTC port
// on a frozen template (no share is a block) at the lowest share difficulty, backed by the given
// PostgreSQL schema, with its share journal under the given dataDir. Sends {port} over IPC once
// listening (after the journal a previous process left was written), answers 'usage' with its
// RSS, and stops cleanly on SIGTERM. The test kills it with SIGKILL.
//   env MANJAM_POOL_CHILD = {"databaseUrl","schema","dataDir"}
import { parseConfig } from '../../../src/config/index.js';
import { openDatabase } from '../../../src/db/index.js';
import { PoolEvents } from '../../../src/events.js';
import { startStratum } from '../../../src/stratum/index.js';
import {
  BTC_REGTEST_ADDRESS,
  FakeTemplateSource,
  frozenTemplate,
} from '../coins/bitcoin/stratum/fake-source.js';
import { testLogger } from '../coins/bitcoin/stratum/harness.js';
import { chainOfSources } from '../../../src/coins/bitcoin/family.js';

interface ChildSpec {
  databaseUrl: string;
  schema: string;
  dataDir: string;
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.env.MANJAM_POOL_CHILD ?? '') as ChildSpec;
  const db = await openDatabase({ databaseUrl: spec.databaseUrl, schema: spec.schema });
  const source = new FakeTemplateSource('BTC', BTC_REGTEST_ADDRESS, frozenTemplate(100));
  const config = parseConfig({
    dataDir: spec.dataDir,
    stratum: {
      host: '127.0.0.1',
      ports: [
        { port: 0, coin: 'BTC', vardiff: { start: 3e-10, min: 3e-10, max: 1e12, retargetSeconds: 3_600 } },
      ],
    },
  });
  const stratum = await startStratum({
    config,
    db,
    logger: testLogger,
    events: new PoolEvents(),
    chains: [chainOfSources([source])],
  });
  process.on('message', (what) => {
    if (what === 'usage')
      process.send?.({ rss: process.memoryUsage().rss, accepted: stratum.stats().sharesAccepted });
  });
  process.on('SIGTERM', () => {
    void stratum
      .stop()
      .then(() => db.close())
      .then(() => process.exit(0));
  });
  process.send?.({ port: stratum.ports()[0]?.port });
}

main().catch((error: unknown) => {
  process.stderr.write(`pool-child: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
