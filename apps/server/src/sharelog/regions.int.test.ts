// The distributed deployment as real processes: `manjam start --role stratum --region riyadh`
// and `--region cairo` with a NATS URL publish to a three-server JetStream cluster; two
// `--role accounting` processes (one holds the advisory lock, one stands by) on PostgreSQL; the
// leader's consumer stores the shares and accounting credits them. Killing a Stratum process
// (its miners move to the other region), then the active accounting process mid-load (the
// standby takes the consumer over): every acknowledged share is stored and credited once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletMiner, regtestAddress } from '../../test/support/accounting/fixtures.js';
import { TEST_DATABASE_URL, openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { type DevChain } from '../coins/bitcoin/devchain/index.js';
import { startBtcTestChain } from '../../test/support/devchain/snapshot.js';
import { testLogger } from '../../test/support/coins/bitcoin/stratum/harness.js';
import { startNatsCluster, type NatsCluster } from '../../test/support/nats-cluster.js';
import {
  processConfig,
  schemaUrl,
  startPoolProcess,
  type PoolProcess,
} from '../../test/support/pool-processes.js';
import {
  allStoredAndCredited,
  connectWalletMiner,
  mineNonBlocks,
  storedPerWorker,
  type WalletMiner,
} from '../../test/support/wallet-miners.js';
import { waitUntil } from '../../test/support/processes.js';

const DIFFICULTY = 3e-10;
const ADDRESS = regtestAddress('regional miner');
const connectMiner = (port: number, worker: string, acknowledged = 0) =>
  connectWalletMiner(port, ADDRESS, worker, acknowledged);

describe('regional Stratum processes on a JetStream share log', () => {
  let dev: DevChain;
  let database: TestDatabase;
  let cluster: NatsCluster;
  const processes: PoolProcess[] = [];
  const miners: WalletMiner[] = [];
  const allStored = () => allStoredAndCredited(database.db, miners);

  beforeAll(async () => {
    [dev, database, cluster] = await Promise.all([
      startBtcTestChain({ logger: testLogger }),
      openTestDatabase('postgres'),
      startNatsCluster(),
    ]);
    await createWalletMiner(database.db, 'BTC', ADDRESS);
    const base = {
      databaseUrl: schemaUrl(TEST_DATABASE_URL, database.schema ?? ''),
      node: dev,
      difficulty: DIFFICULTY,
    };
    const distributed = { natsUrl: cluster.servers.join(','), replicas: 3 };
    const config = (instanceId?: number) => ({
      ...processConfig(instanceId === undefined ? base : { ...base, instanceId }),
      distributed,
    });
    // The accounting processes first: the first holds the lock (and creates the stream), the second stands by.
    processes.push(await startPoolProcess('accounting', config()));
    processes.push(await startPoolProcess('accounting', config()));
    const regions = await Promise.all([
      startPoolProcess('stratum', config(1), 120_000, ['--region', 'riyadh']),
      startPoolProcess('stratum', config(2), 120_000, ['--region', 'cairo']),
    ]);
    processes.push(...regions);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(miners.map((m) => m.client.close()));
    for (const p of processes) p.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.exited));
    await cluster?.stop();
    await database?.drop();
    await dev?.stop();
  });

  it('stores and credits every acknowledged share of both regions once, also after a Stratum process and then the active accounting process die', async () => {
    const [first, second, riyadh, cairo] = processes as [PoolProcess, PoolProcess, PoolProcess, PoolProcess];
    expect(first.output()).toMatch(/holding the accounting lock/);
    expect(second.output()).toMatch(/standing by/);
    expect(riyadh.output()).toMatch(/shares go to the JetStream share log/);

    miners.push(
      await connectMiner(riyadh.stratumPort, 'riyadh1'),
      await connectMiner(riyadh.stratumPort, 'riyadh2'),
      await connectMiner(cairo.stratumPort, 'cairo1'),
    );
    await Promise.all(miners.map((m) => mineNonBlocks(m, 20)));
    expect(miners.map((m) => m.acknowledged)).toEqual([20, 20, 20]);
    await waitUntil(allStored, 60_000, 'shares of both regions stored and credited');
    // They came through the share log: every stored batch is a JetStream message of a region.
    const batches = await database.db.query<{ region: string; n: bigint }>(
      `SELECT split_part(id, '.', 1) AS region, count(*)::bigint AS n FROM share_batches GROUP BY 1 ORDER BY 1`,
    );
    expect(batches.rows.map((r) => r.region)).toEqual(['cairo', 'riyadh']);

    // A regional Stratum process dies: what it acknowledged is already in JetStream; its miners
    // fail over to the other region.
    riyadh.child.kill('SIGKILL');
    await riyadh.exited;
    for (const m of miners.filter((x) => x.worker.startsWith('riyadh'))) {
      await m.client.closedPromise;
      Object.assign(m, {
        ...(await connectMiner(cairo.stratumPort, m.worker)),
        acknowledged: m.acknowledged,
      });
    }
    await Promise.all(miners.map((m) => mineNonBlocks(m, 15)));

    first.child.kill('SIGKILL');
    await first.exited;
    const load = Promise.all(miners.map((m) => mineNonBlocks(m, 15)));
    const tookOver = await waitUntil(
      () => /took over the accounting lock/.test(second.output()),
      60_000,
      'the standby took over',
    );
    await load;
    expect(miners.map((m) => m.acknowledged)).toEqual([50, 50, 50]);
    const stored = await waitUntil(allStored, 90_000, 'shares after the takeover stored and credited');
    process.stdout.write(
      `[sharelog regions] 150 acknowledged; standby took over ${tookOver.toFixed(1)} s after the kill; all stored and credited ${stored.toFixed(1)} s after the load\n`,
    );
    const rows = await storedPerWorker(database.db);
    expect([...rows.values()].reduce((n, r) => n + r.stored, 0)).toBe(150);
  });
});
