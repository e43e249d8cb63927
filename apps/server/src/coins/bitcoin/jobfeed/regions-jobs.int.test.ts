// Jobs from the core as real processes: two `manjam start --role accounting` on a bcoin regtest
// node (the lock holder publishes the job feed, the other stands by) and `manjam start --role
// stratum --region riyadh` with no coin node (MANJAM_JOBS_FROM_CORE), all on a three-server
// JetStream cluster. The region mines, finds a block that the core puts on its node, and keeps
// its miners when the active accounting process dies: the standby publishes the jobs from then on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletMiner, regtestAddress } from '../../../../test/support/accounting/fixtures.js';
import { ChainNode } from '../node/index.js';
import { TEST_DATABASE_URL, openTestDatabase, type TestDatabase } from '../../../../test/support/db.js';
import { type DevChain } from '../devchain/index.js';
import { startBtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { testLogger } from '../../../../test/support/coins/bitcoin/stratum/harness.js';
import { startNatsCluster, type NatsCluster } from '../../../../test/support/nats-cluster.js';
import {
  processConfig,
  schemaUrl,
  startPoolProcess,
  type PoolProcess,
} from '../../../../test/support/pool-processes.js';
import { waitUntil } from '../../../../test/support/processes.js';
import {
  allStoredAndCredited,
  connectWalletMiner,
  mineNonBlocks,
  type WalletMiner,
} from '../../../../test/support/wallet-miners.js';

const DIFFICULTY = 3e-10;
const ADDRESS = regtestAddress('region without nodes');
const SILENCE_S = 10;

describe('a regional Stratum process without coin nodes, on the core job feed', () => {
  let dev: DevChain;
  let node: ChainNode;
  let database: TestDatabase;
  let cluster: NatsCluster;
  const processes: PoolProcess[] = [];
  const miners: WalletMiner[] = [];

  beforeAll(async () => {
    [dev, database, cluster] = await Promise.all([
      startBtcTestChain({ logger: testLogger }),
      openTestDatabase('postgres'),
      startNatsCluster(),
    ]);
    node = new ChainNode({ coin: 'BTC', rpc: dev.rpc });
    await createWalletMiner(database.db, 'BTC', ADDRESS);
    const base = {
      databaseUrl: schemaUrl(TEST_DATABASE_URL, database.schema ?? ''),
      node: dev,
      difficulty: DIFFICULTY,
    };
    const distributed = { natsUrl: cluster.servers.join(','), replicas: 3 };
    processes.push(await startPoolProcess('accounting', { ...processConfig(base), distributed }));
    processes.push(await startPoolProcess('accounting', { ...processConfig(base), distributed }));
    const region = {
      ...processConfig({ ...base, instanceId: 1 }),
      chains: { BTC: { network: 'regtest', nodeSilenceSeconds: SILENCE_S }, LTC: { enabled: false } },
      distributed: { ...distributed, jobsFromCore: true },
    };
    processes.push(await startPoolProcess('stratum', region, 120_000, ['--region', 'riyadh']));
  }, 300_000);

  afterAll(async () => {
    await Promise.all(miners.map((m) => m.client.close()));
    for (const p of processes) p.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.exited));
    node?.close();
    await cluster?.stop();
    await database?.drop();
    await dev?.stop();
  });

  it("mines on the core node's work, its block lands on the node, and it keeps mining when the active accounting process dies", async () => {
    const [leader, standby, riyadh] = processes as [PoolProcess, PoolProcess, PoolProcess];
    expect(leader.output()).toMatch(/publishing jobs/);
    expect(riyadh.output()).toMatch(/jobs come from the core's job feed/);
    expect(riyadh.output()).not.toMatch(/devchain|bcoin/i);

    const miner = await connectWalletMiner(riyadh.stratumPort, ADDRESS, 'riyadh1');
    miners.push(miner);
    expect(miner.client.job?.template.prevHashRpc).toBe(await node.getBestBlockHash());
    await mineNonBlocks(miner, 20);
    expect(miner.acknowledged).toBe(20);

    // A block found at the region goes through the core to the node.
    const job = miner.client.job;
    if (!job) throw new Error('no job');
    const block = miner.client.findShare(job, 'sha256d', {
      accept: (b, j) => b.hashValue <= j.template.networkTarget,
    });
    const tipBefore = await node.getBestBlockHash();
    expect((await miner.client.submit(miner.login, block)).result).toBe(true);
    miner.acknowledged++;
    await waitUntil(
      async () => (await node.getBestBlockHash()) !== tipBefore,
      30_000,
      'the block on the node',
    );
    const tip = await node.getBestBlockHash();
    await miner.client.waitForJob((j) => j.clean && j.template.prevHashRpc === tip);
    expect(riyadh.output()).not.toMatch(/core unreachable/);

    // The publisher dies with the active accounting process; the standby takes the feed over.
    const killedAt = Date.now();
    leader.child.kill('SIGKILL');
    await leader.exited;
    await waitUntil(() => /publishing jobs/.test(standby.output()), 60_000, 'the standby publishes jobs');
    const publishingAt = Date.now();
    const mineAt = Date.now();
    const [hash] = await dev.mine(1);
    const clean = await miner.client.waitForJob((j) => j.clean && j.template.prevHashRpc === hash, 30_000);
    await mineNonBlocks(miner, 10);
    expect(miner.acknowledged).toBe(31);
    expect(miner.client.closed).toBe(false);
    expect(riyadh.output()).not.toMatch(/work stopped/);
    await waitUntil(() => allStoredAndCredited(database.db, miners), 90_000, 'shares stored and credited');
    process.stdout.write(
      `[jobfeed regions] 31 acknowledged and credited (1 block through the core); standby publishing ` +
        `${((publishingAt - killedAt) / 1000).toFixed(1)} s after the leader was killed (silence limit ${SILENCE_S} s, miner kept); ` +
        `next tip at the region's miner ${clean.receivedMs - mineAt} ms after generatetoaddress\n`,
    );
  });
});
