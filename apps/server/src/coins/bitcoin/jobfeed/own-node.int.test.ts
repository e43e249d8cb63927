// A region that takes its jobs from the core and also has a node of its own: a block found while
// its link to the core is cut goes to its own node at once (the coin's block is not held for the
// core), and to the core as well once the link returns.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/db.js';
import { waitUntil } from '../../../../test/support/processes.js';
import {
  nextBlock,
  shareOn,
  startCoreOnFeed,
  startRegionOnFeed,
  type CoreOnFeed,
  type RegionOnFeed,
} from '../../../../test/support/coins/bitcoin/jobfeed.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

describe('a region on the core job feed with a node of its own', () => {
  let core: CoreOnFeed;
  let database: TestDatabase;
  let region: RegionOnFeed;

  beforeAll(async () => {
    [core, database] = await Promise.all([startCoreOnFeed(30_000), openTestDatabase('postgres')]);
    // Its own node is the same regtest bcoin (this machine runs one chain): what matters is which
    // way the block reaches it while the core is out of reach.
    region = await startRegionOnFeed(core, { database, silenceS: 30, instanceId: 2, rpc: core.chain.rpc });
  });

  afterAll(async () => {
    await region?.stop();
    await core?.stop();
    await database?.drop();
  });

  it('puts a block found during a cut on its own node at once, and still delivers it to the core after the cut', async () => {
    const { client } = await region.connectMiner();
    const block = shareOn(client, true);
    const found = nextBlock(region);
    await core.leaf.link.cut();
    const submittedAt = Date.now();
    expect((await client.submit(region.login, block)).result).toBe(true);
    const { hash, status } = await found;
    expect(status).toBe('pending');
    expect(await core.nodes.current.getBestBlockHash()).toBe(hash);
    const onNodeMs = Date.now() - submittedAt;
    expect(region.source.blocksResending).toBe(1);
    expect(core.feed.stats.blocksSubmitted).toBe(0);
    await core.leaf.link.restore();
    await waitUntil(() => region.source.blocksResending === 0, 30_000, 'the block re-sent to the core');
    expect(core.feed.stats.blocksSubmitted).toBe(1);
    await client.close();
    process.stdout.write(
      `job feed own node: block on the region's own node ${onNodeMs} ms after the submit, link cut\n`,
    );
  });
});
