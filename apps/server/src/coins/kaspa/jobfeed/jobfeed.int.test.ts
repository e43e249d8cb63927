// KAS jobs from the core: a real three-server JetStream cluster (domain core) with the real kaspad
// simnet dev chain behind the core's KAS job feed, and a region (its own leaf server, domain
// riyadh, reached through a link the test cuts) whose KAS port has no kaspad: it mines on the
// feed's block templates and sends found blocks to the core, which submits them to kaspad.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/db.js';
import {
  startKaspaCoreOnFeed,
  startKaspaRegionOnFeed,
  type KaspaCoreOnFeed,
  type KaspaRegionOnFeed,
} from '../../../../test/support/coins/kaspa/jobfeed.js';
import { sleep, waitUntil } from '../../../../test/support/processes.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

/** The region's silence limit (chains.KAS.nodeSilenceSeconds). */
const SILENCE_S = 5;
const say = (line: string): boolean => process.stdout.write(`${line}\n`);

describe('a region without kaspad mining KAS on the core job feed', () => {
  let core: KaspaCoreOnFeed;
  let database: TestDatabase;
  let region: KaspaRegionOnFeed;

  const networkTarget = (): bigint => {
    const current = core.source.current;
    if (!current) throw new Error('the core has no KAS template');
    return current.target;
  };
  const nextBlock = (): Promise<{ hash: string; status: string }> =>
    new Promise((resolve) => {
      const off = region.events.on('block.found', (e) => {
        off();
        resolve(e);
      });
    });
  const inKaspad = async (hash: string): Promise<boolean> =>
    core.chain.node.getBlock(hash, false).then(
      (block) => block.verboseData?.hash === hash,
      () => false,
    );
  const storedShares = async (): Promise<number> =>
    Number(
      (await database.db.query<{ n: string }>('SELECT count(*) AS n FROM shares WHERE coin = $1', ['KAS']))
        .rows[0]?.n ?? 0,
    );

  beforeAll(async () => {
    [core, database] = await Promise.all([startKaspaCoreOnFeed(), openTestDatabase('postgres')]);
    region = await startKaspaRegionOnFeed(core, { database, silenceS: SILENCE_S, instanceId: 1 });
  });

  afterAll(async () => {
    await region?.stop();
    await core?.stop();
    await database?.drop();
  });

  it("gives the region's miner kaspad's template through the core and stores its shares", async () => {
    const miner = await region.connectMiner();
    expect(region.chain.feed.poolAddress).toBe(core.chain.poolAddress);
    const before = await storedShares();
    for (let i = 0; i < 3; i++) {
      const job = miner.jobs.at(-1);
      if (!job) throw new Error('no job');
      const nonce = miner.find(job, (pow, share) => pow <= share && pow > networkTarget());
      expect(await miner.submit('w', job, nonce)).toMatchObject({ result: true, error: null });
    }
    await waitUntil(async () => (await storedShares()) === before + 3, 30_000, 'the shares stored');
    miner.close();
  });

  it('submits a block found at the region through the core, and kaspad takes it into its DAG', async () => {
    const miner = await region.connectMiner();
    const job = miner.jobs.at(-1);
    if (!job) throw new Error('no job');
    const found = nextBlock();
    const nonce = miner.find(job, (pow) => pow <= networkTarget());
    expect((await miner.submit('w', job, nonce)).result).toBe(true);
    const block = await found;
    expect(block.status).toBe('pending');
    expect(await inKaspad(block.hash)).toBe(true);
    expect(core.feed.stats.blocksSubmitted).toBe(1);
    miner.close();
  });

  it('re-sends a block found while the link to the core is cut, and kaspad takes it once the link returns', async () => {
    const miner = await region.connectMiner();
    const job = miner.jobs.at(-1);
    if (!job) throw new Error('no job');
    await core.leaf.link.cut();
    let hash = '';
    try {
      const found = nextBlock();
      const nonce = miner.find(job, (pow) => pow <= networkTarget());
      expect((await miner.submit('w', job, nonce)).result).toBe(true);
      const block = await found;
      hash = block.hash;
      expect(block.status).toBe('submitted');
      expect(region.chain.feed.blocksResending).toBe(1);
      expect(await inKaspad(hash)).toBe(false);
      await sleep(1_500);
    } finally {
      await core.leaf.link.restore();
    }
    const restoredAt = Date.now();
    await waitUntil(() => inKaspad(hash), 30_000, 'the block in kaspad');
    say(
      `kas job feed: block found during a cut reached kaspad ${Date.now() - restoredAt} ms after the link returned`,
    );
    await waitUntil(() => region.chain.feed.blocksResending === 0, 10_000, 'the re-send finished');
    miner.close();
  });

  it('stops KAS in the region when it is cut from the core past the silence limit, and resumes when the link returns', async () => {
    const miner = await region.connectMiner();
    await core.leaf.link.cut();
    const cutAt = Date.now();
    let stoppedMs = 0;
    try {
      await waitUntil(() => !region.chain.feed.availability().up, (SILENCE_S + 5) * 1000, 'KAS stopped');
      stoppedMs = Date.now() - cutAt;
      const job = miner.jobs.at(-1);
      if (!job) throw new Error('no job');
      const nonce = miner.find(job, (pow, share) => pow <= share && pow > networkTarget());
      expect((await miner.submit('w', job, nonce)).error?.[1]).toBe('Stale job');
    } finally {
      await core.leaf.link.restore();
    }
    const restoredAt = Date.now();
    await waitUntil(() => region.chain.feed.availability().up, 30_000, 'KAS working again');
    const again = await region.connectMiner();
    const job = again.jobs.at(-1);
    if (!job) throw new Error('no job');
    const nonce = again.find(job, (pow, share) => pow <= share && pow > networkTarget());
    expect(await again.submit('w', job, nonce)).toMatchObject({ result: true, error: null });
    say(
      `kas job feed: work stopped ${stoppedMs} ms after the cut (silence limit ${SILENCE_S} s), ` +
        `a share accepted ${Date.now() - restoredAt} ms after the link returned`,
    );
    miner.close();
    again.close();
  });
});
