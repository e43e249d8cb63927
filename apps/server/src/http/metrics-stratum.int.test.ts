// A Stratum-only process (`manjam start --role stratum`) serves /metrics on its own: the Stratum
// counters and the event-loop and GC figures, under the same access rule as the API's /metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regtestAddress } from '../../test/support/accounting/fixtures.js';
import { TEST_DATABASE_URL, openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { type DevChain } from '../coins/bitcoin/devchain/index.js';
import { startBtcTestChain } from '../../test/support/devchain/snapshot.js';
import { StratumTestClient } from '../../test/support/coins/bitcoin/stratum/client.js';
import { testLogger } from '../../test/support/coins/bitcoin/stratum/harness.js';
import {
  processConfig,
  schemaUrl,
  startPoolProcess,
  type PoolProcess,
} from '../../test/support/pool-processes.js';

const ADDRESS = regtestAddress('metrics miner');

describe('/metrics of a Stratum-only process', () => {
  let dev: DevChain;
  let database: TestDatabase;
  let pool: PoolProcess;
  let metricsUrl = '';

  beforeAll(async () => {
    dev = await startBtcTestChain({ logger: testLogger });
    database = await openTestDatabase('postgres');
    const config = processConfig({
      databaseUrl: schemaUrl(TEST_DATABASE_URL, database.schema ?? ''),
      node: dev,
      difficulty: 3e-10,
    });
    pool = await startPoolProcess('stratum', config);
    metricsUrl = pool.output().match(/Metrics:\s+(http:\/\/\S+)/)?.[1] ?? '';
  }, 300_000);

  afterAll(async () => {
    pool?.child.kill('SIGTERM');
    await pool?.exited;
    await database?.drop();
    await dev?.stop();
  });

  it('answers the scraper on loopback with the Stratum counters, event-loop delay and GC pauses', async () => {
    expect(pool.webUrl).toBe('');
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);

    const client = await StratumTestClient.connect(pool.stratumPort);
    try {
      expect((await client.subscribe()).error).toBeNull();
      expect((await client.authorize(`${ADDRESS}.rig1`)).result).toBe(true);
      const res = await fetch(metricsUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      expect(text).toMatch(/^manjam_stratum_connections 1$/m);
      expect(text).toMatch(/^manjam_stratum_shares_total\{result="accepted"\} 0$/m);
      expect(text).toMatch(/^manjam_event_loop_delay_seconds\{quantile="0\.99"\} [\d.e-]+$/m);
      expect(text).toContain('# TYPE manjam_gc_pauses_total counter');
    } finally {
      await client.close();
    }
  });

  it('refuses a request that came through a proxy, and serves nothing but /metrics', async () => {
    const proxied = await fetch(metricsUrl, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.status).toBe(403);
    expect(((await proxied.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    expect((await fetch(metricsUrl.replace(/\/metrics$/, '/api/health'))).status).toBe(404);
  });
});
