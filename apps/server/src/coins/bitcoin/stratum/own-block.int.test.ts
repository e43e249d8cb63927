import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockHashHex, type BuiltShare } from '@manjam/protocol';
import { BlocksRepository } from '../../../db/repositories/blocks.js';
import { FOUND_BLOCK_STATUS } from '../../../stratum/source.js';
import { submitBlock } from '../node/block-submitter.js';
import { mineBlockFromTemplate } from '../../../../test/support/coins/bitcoin/node/mine-block.js';
import type { DevChain } from '../devchain/index.js';
import { startBtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { StratumTestClient, type ClientJob } from '../../../../test/support/coins/bitcoin/stratum/client.js';
import {
  startPoolOnChain,
  testLogger,
  type PoolOnChain,
} from '../../../../test/support/coins/bitcoin/stratum/harness.js';

// On regtest nearly every share is a block: two shares solving blocks on one job are two blocks on
// one parent. The pool submits the first and answers the second as stale (the OWN-BLOCK RULE in
// stratum/block-first.ts), so the node never holds a second block of the pool's at that height.
describe("the pool's own block at a height on bcoin regtest (SHA-256d)", () => {
  let chain: DevChain;
  let pool: PoolOnChain;
  let client: StratumTestClient | undefined;

  beforeAll(async () => {
    chain = await startBtcTestChain({ logger: testLogger });
    pool = await startPoolOnChain({ coin: 'BTC', chain, ports: [{ start: 3e-10 }] });
  });
  afterAll(async () => {
    await client?.close();
    await pool?.close();
    await chain?.stop();
  });

  it('records one block at the height, tells the miner "Stale job" for a second block on the same job, and the node grows by one block', async () => {
    const login = `${chain.poolAddress}.rig1`;
    client = await StratumTestClient.connect(pool.ports[0] as number);
    expect((await client.subscribe()).error).toBeNull();
    expect((await client.authorize(login)).result).toBe(true);
    const job = await client.waitForJob();
    const isBlock = (b: BuiltShare, j: ClientJob) => b.hashValue <= j.template.networkTarget;
    const first = client.findShare(job, 'sha256d', { accept: isBlock });
    const second = client.findShare(job, 'sha256d', { accept: isBlock });
    const firstHash = blockHashHex(first.built.header);
    const secondHash = blockHashHex(second.built.header);
    expect(secondHash).not.toBe(firstHash);
    const countBefore = await pool.node.rpc.call<number>('getblockcount', []);
    const found = new Promise<string>((resolve) => {
      const off = pool.events.on('block.found', (e) => {
        off();
        resolve(e.hash);
      });
    });

    // Both lines leave at once, as a miner sends two solutions of one job.
    const [firstReply, secondReply] = await Promise.all([
      client.submit(login, first),
      client.submit(login, second),
    ]);

    expect(firstReply).toMatchObject({ result: true, error: null });
    expect(secondReply.error).toEqual([21, 'Stale job', null]);
    expect(await found).toBe(firstHash);
    const height = countBefore + 1;
    expect(await pool.node.rpc.call<number>('getblockcount', [])).toBe(height);
    expect(await pool.node.getBestBlockHash()).toBe(firstHash);
    const blocks = new BlocksRepository(pool.db);
    expect(await blocks.byHash(firstHash)).toMatchObject({ height, status: 'pending' });
    expect(await blocks.byHash(secondHash)).toBeUndefined();
    const atHeight = (await blocks.listRecent('BTC', 20)).filter((b) => b.height === height);
    expect(atHeight.map((b) => b.hash)).toEqual([firstHash]);

    // The miner goes on mining on the pool's block: a share on the next job is accepted.
    const next = await client.waitForJob((j) => j.clean && j.template.prevHashRpc === firstHash);
    const share = client.findShare(next, 'sha256d');
    expect(await client.submit(login, share)).toMatchObject({ result: true, error: null });
  });

  it('records a block that another block beat to its height as orphaned, not pending: the node holds it on a side branch', async () => {
    const block = mineBlockFromTemplate('BTC', await pool.node.getBlockTemplate(), chain.poolAddress);
    const [rival] = await chain.mine(1);
    const result = await submitBlock(pool.node, block.hex, block, { confirmTimeoutMs: 300 });
    expect(result).toMatchObject({ status: 'side_branch', tipHash: rival });
    expect(result.detail).toMatch(/side branch/);
    expect(FOUND_BLOCK_STATUS[result.status]).toBe('orphaned');
    expect(await pool.node.getBestBlockHash()).toBe(rival);
    expect((await pool.node.getBlockHeader(block.hash)).hash).toBe(block.hash);
  });
});
