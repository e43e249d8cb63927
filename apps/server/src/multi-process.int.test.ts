// Two Stratum processes, one API and one accounting process on one PostgreSQL database and one
// regtest node, as a pool scales out: shares from both Stratum processes are stored and credited
// exactly once, and when one Stratum process dies its miners reconnect to the other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletMiner, regtestAddress } from '../test/support/accounting/fixtures.js';
import { TEST_DATABASE_URL, openTestDatabase, type TestDatabase } from '../test/support/db.js';
import { type DevChain } from './coins/bitcoin/devchain/index.js';
import { startBtcTestChain } from '../test/support/devchain/snapshot.js';
import { testLogger } from '../test/support/coins/bitcoin/stratum/harness.js';
import {
  processConfig,
  schemaUrl,
  startPoolProcess,
  type PoolProcess,
} from '../test/support/pool-processes.js';
import {
  allStoredAndCredited,
  connectWalletMiner,
  mineNonBlocks,
  storedPerWorker,
  type WalletMiner,
} from '../test/support/wallet-miners.js';
import { waitUntil } from '../test/support/processes.js';

const DIFFICULTY = 3e-10;
const ADDRESS = regtestAddress('multi-process miner');
const connectMiner = (port: number, worker: string, acknowledged = 0) =>
  connectWalletMiner(port, ADDRESS, worker, acknowledged);

describe('several Stratum processes on one database', () => {
  let dev: DevChain;
  let database: TestDatabase;
  const processes: PoolProcess[] = [];
  const miners: WalletMiner[] = [];
  const allStored = () => allStoredAndCredited(database.db, miners);

  beforeAll(async () => {
    dev = await startBtcTestChain({ logger: testLogger });
    database = await openTestDatabase('postgres');
    await createWalletMiner(database.db, 'BTC', ADDRESS);
    const base = {
      databaseUrl: schemaUrl(TEST_DATABASE_URL, database.schema ?? ''),
      node: dev,
      difficulty: DIFFICULTY,
    };
    const started = await Promise.all([
      startPoolProcess('accounting', processConfig(base)),
      startPoolProcess('api', processConfig(base)),
      startPoolProcess('stratum', processConfig({ ...base, instanceId: 1 })),
      startPoolProcess('stratum', processConfig({ ...base, instanceId: 2 })),
    ]);
    processes.push(...started);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(miners.map((m) => m.client.close()));
    for (const p of processes) p.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.exited));
    await database?.drop();
    await dev?.stop();
  });

  it('credits shares from both Stratum processes exactly once, and keeps crediting after one dies and its miners move', async () => {
    const [, api, stratumA, stratumB] = processes as [PoolProcess, PoolProcess, PoolProcess, PoolProcess];
    expect(stratumA.stratumPort).not.toBe(stratumB.stratumPort);
    expect((await fetch(`${api.webUrl}/api/health`)).status).toBe(200);

    miners.push(
      await connectMiner(stratumA.stratumPort, 'a1'),
      await connectMiner(stratumA.stratumPort, 'a2'),
      await connectMiner(stratumB.stratumPort, 'b1'),
    );
    await Promise.all(miners.map((m) => mineNonBlocks(m, 12)));
    expect(miners.map((m) => m.acknowledged)).toEqual([12, 12, 12]);
    // Accounting cycles every 10 s.
    await waitUntil(allStored, 45_000, 'shares of both Stratum processes stored and credited');

    stratumA.child.kill('SIGKILL');
    await stratumA.exited;
    const moved = miners.filter((m) => m.worker.startsWith('a'));
    await Promise.all(moved.map((m) => m.client.closedPromise));
    // The miners' failover: the next pool in their list, the other Stratum process.
    for (const m of moved)
      Object.assign(m, await connectMiner(stratumB.stratumPort, m.worker, m.acknowledged));
    await Promise.all(miners.map((m) => mineNonBlocks(m, 8)));
    expect(miners.map((m) => m.acknowledged)).toEqual([20, 20, 20]);
    await waitUntil(allStored, 45_000, 'shares after the failover stored and credited');

    const rows = await storedPerWorker(database.db);
    expect([...rows.values()].reduce((n, r) => n + r.stored, 0)).toBe(60);
  });
});
