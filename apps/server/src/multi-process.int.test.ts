// Two Stratum processes, one API and one accounting process on one PostgreSQL database and one
// regtest node, as a pool scales out: shares from both Stratum processes are stored and credited
// exactly once, and when one Stratum process dies its miners reconnect to the other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletMiner, regtestAddress } from './accounting/testing/fixtures.js';
import { TEST_DATABASE_URL, openTestDatabase, type TestDatabase } from './db/testing.js';
import { startBtcDevChain, type DevChain } from './devchain/index.js';
import { StratumTestClient } from './stratum/testing/client.js';
import { testLogger } from './stratum/testing/harness.js';
import { processConfig, schemaUrl, startPoolProcess, type PoolProcess } from './testing/pool-processes.js';
import { waitUntil } from './testing/processes.js';

const DIFFICULTY = 3e-10;
const ADDRESS = regtestAddress('multi-process miner');

interface Miner {
  worker: string;
  client: StratumTestClient;
  acknowledged: number;
}

async function connectMiner(port: number, worker: string, acknowledged = 0): Promise<Miner> {
  const client = await StratumTestClient.connect(port);
  expect((await client.subscribe()).error).toBeNull();
  expect((await client.authorize(`${ADDRESS}.${worker}`)).result).toBe(true);
  await client.waitForJob();
  return { worker, client, acknowledged };
}

/** Submits `n` shares that are not blocks on the miner's latest job; counts the `true` answers. */
async function mine(miner: Miner, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const job = miner.client.job;
    if (!job) throw new Error('no job');
    const share = miner.client.findShare(job, 'sha256d', {
      accept: (b, j) => b.hashValue > j.template.networkTarget,
    });
    const reply = await miner.client.submit(`${ADDRESS}.${miner.worker}`, share);
    if (reply.result === true) miner.acknowledged++;
  }
}

describe('several Stratum processes on one database', () => {
  let dev: DevChain;
  let database: TestDatabase;
  const processes: PoolProcess[] = [];
  const miners: Miner[] = [];

  const perWorker = async (): Promise<Map<string, { stored: number; credited: number }>> => {
    const result = await database.db.query<{ name: string; stored: bigint; credited: bigint }>(
      `SELECT w.name, count(*)::bigint AS stored, count(*) FILTER (WHERE s.credited)::bigint AS credited
       FROM shares s JOIN workers w ON w.id = s.worker_id GROUP BY w.name`,
    );
    return new Map(
      result.rows.map((r) => [r.name, { stored: Number(r.stored), credited: Number(r.credited) }]),
    );
  };
  /** Every miner's acknowledged shares are stored and credited (each share once: one row, one flag). */
  const allStoredAndCredited = async (): Promise<boolean> => {
    const rows = await perWorker();
    return miners.every(
      (m) => rows.get(m.worker)?.stored === m.acknowledged && rows.get(m.worker)?.credited === m.acknowledged,
    );
  };

  beforeAll(async () => {
    dev = await startBtcDevChain({ logger: testLogger });
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
    await Promise.all(miners.map((m) => mine(m, 12)));
    expect(miners.map((m) => m.acknowledged)).toEqual([12, 12, 12]);
    // Accounting cycles every 10 s.
    await waitUntil(allStoredAndCredited, 45_000, 'shares of both Stratum processes stored and credited');

    stratumA.child.kill('SIGKILL');
    await stratumA.exited;
    const moved = miners.filter((m) => m.worker.startsWith('a'));
    await Promise.all(moved.map((m) => m.client.closedPromise));
    // The miners' failover: the next pool in their list, the other Stratum process.
    for (const m of moved)
      Object.assign(m, await connectMiner(stratumB.stratumPort, m.worker, m.acknowledged));
    await Promise.all(miners.map((m) => mine(m, 8)));
    expect(miners.map((m) => m.acknowledged)).toEqual([20, 20, 20]);
    await waitUntil(allStoredAndCredited, 45_000, 'shares after the failover stored and credited');

    const rows = await perWorker();
    expect([...rows.values()].reduce((n, r) => n + r.stored, 0)).toBe(60);
  });
});
