// XMR jobs from the core: a real three-server JetStream cluster (domain core) with the real Monero
// regtest dev chain (monerod --fixed-difficulty 1: every hash is a block) behind the core's XMR
// job feed, and a region (its own leaf server, domain riyadh, reached through a link the test
// cuts) whose XMR port has no monerod: it mines on the feed, hashes shares with RandomX seeded
// from the published seed hash, and sends found blocks to the core, which submits them to monerod.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/db.js';
import {
  moneroTip,
  nextMoneroBlock,
  onMoneroTip,
  startMoneroCoreOnFeed,
  startMoneroRegionOnFeed,
  type MoneroCoreOnFeed,
  type MoneroRegionOnFeed,
} from '../../../../test/support/coins/monero/jobfeed.js';
import { sleep, waitUntil } from '../../../../test/support/processes.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

/** The region's silence limit (chains.XMR.nodeSilenceSeconds). */
const SILENCE_S = 5;
const say = (line: string): boolean => process.stdout.write(`${line}\n`);

describe('a region without monerod mining XMR on the core job feed', () => {
  let core: MoneroCoreOnFeed;
  let database: TestDatabase;
  let region: MoneroRegionOnFeed;

  const tip = () => moneroTip(core);
  const blockRow = async (hash: string) =>
    (
      await database.db.query<{ status: string; height: number }>(
        'SELECT status, height FROM blocks WHERE coin = $1 AND hash = $2',
        ['XMR', hash],
      )
    ).rows[0];
  const storedShares = async (): Promise<number> =>
    Number(
      (await database.db.query<{ n: string }>('SELECT count(*) AS n FROM shares WHERE coin = $1', ['XMR']))
        .rows[0]?.n ?? 0,
    );
  /** A miner logged in at the region, on the job the login gave it. */
  const loggedIn = async () => {
    const miner = await region.connectMiner();
    const reply = await miner.login(region.login);
    if (reply.error) throw new Error(`login refused: ${reply.error.message}`);
    await onMoneroTip(core, miner);
    return miner;
  };

  beforeAll(async () => {
    [core, database] = await Promise.all([startMoneroCoreOnFeed(), openTestDatabase('postgres')]);
    region = await startMoneroRegionOnFeed(core, { database, silenceS: SILENCE_S, instanceId: 1 });
  });

  afterAll(async () => {
    await region?.stop();
    await core?.stop();
    await database?.drop();
  });

  it("gives the region's miner monerod's template through the core, stores its share, and its block becomes monerod's tip", async () => {
    const before = await tip();
    const miner = await loggedIn();
    expect(miner.job?.height).toBe(before.height + 1);
    expect(region.source.poolAddress).toBe(core.chain.poolAddress);
    const sharesBefore = await storedShares();
    const share = await miner.mine(() => true);
    expect(await miner.submit(share)).toMatchObject({ error: null, result: { status: 'OK' } });
    await waitUntil(async () => (await tip()).height === before.height + 1, 30_000, 'the block on monerod');
    const after = await tip();
    await waitUntil(async () => (await blockRow(after.hash)) !== undefined, 30_000, 'the block recorded');
    // 'pending' when monerod's answer came back in time; 'submitted' when it did not (a loaded
    // machine): accounting settles that against the chain, and the API shows both as pending.
    const recorded = await blockRow(after.hash);
    expect(['pending', 'submitted']).toContain(recorded?.status);
    expect(recorded?.height).toBe(after.height);
    expect(core.feed.stats.blocksSubmitted).toBe(1);
    await waitUntil(async () => (await storedShares()) === sharesBefore + 1, 30_000, 'the share stored');
    // The core's next template builds on it and reaches the miner.
    await miner.nextJob((j) => j.height === after.height + 1);
    miner.close();
  });

  it("brings each new monerod tip to the region's miner as a new job", async () => {
    const miner = await loggedIn();
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const minedAt = Date.now();
      await core.chain.devchain?.mine(1);
      const { height } = await tip();
      await miner.nextJob((j) => j.height === height + 1);
      latencies.push(Date.now() - minedAt);
    }
    const share = await miner.mine(() => true);
    const found = nextMoneroBlock(region);
    expect(await miner.submit(share)).toMatchObject({ error: null, result: { status: 'OK' } });
    const { hash } = await found;
    await waitUntil(async () => (await tip()).hash === hash, 30_000, 'the block on monerod');
    say(`xmr job feed: monerod tip -> region miner's job over 5 tips: ${latencies.join(', ')} ms`);
    expect(Math.max(...latencies)).toBeLessThan(5_000);
    miner.close();
  });

  it('re-sends a block found while the link to the core is cut, and monerod takes it once the link returns', async () => {
    const miner = await loggedIn();
    const before = await tip();
    await core.leaf.link.cut();
    let hash = '';
    try {
      const share = await miner.mine(() => true);
      const found = nextMoneroBlock(region);
      expect(await miner.submit(share)).toMatchObject({ error: null, result: { status: 'OK' } });
      const block = await found;
      hash = block.hash;
      expect(block.status).toBe('submitted');
      expect(region.source.blocksResending).toBe(1);
      expect((await tip()).hash).toBe(before.hash);
      await sleep(1_500);
    } finally {
      await core.leaf.link.restore();
    }
    const restoredAt = Date.now();
    await waitUntil(async () => (await tip()).hash === hash, 30_000, 'the block on monerod');
    say(
      `xmr job feed: block found during a cut reached monerod ${Date.now() - restoredAt} ms after the link returned`,
    );
    await waitUntil(() => region.source.blocksResending === 0, 10_000, 'the re-send finished');
    miner.close();
  });

  it('stops XMR in the region when it is cut from the core past the silence limit, and resumes when the link returns', async () => {
    const miner = await loggedIn();
    await core.leaf.link.cut();
    const cutAt = Date.now();
    let stoppedMs: number;
    try {
      await waitUntil(() => !region.source.availability().up, (SILENCE_S + 5) * 1000, 'XMR stopped');
      stoppedMs = Date.now() - cutAt;
      // The work miners hold is refused, and the port takes no new miner.
      const stale = await miner.mine(() => true);
      expect((await miner.submit(stale)).error?.message).toBe('Stale job');
      const newcomer = await region.connectMiner();
      const closed = new Promise<void>((resolve) => newcomer.onClose(resolve));
      expect(await Promise.race([closed.then(() => 'closed'), sleep(5_000).then(() => 'open')])).toBe(
        'closed',
      );
    } finally {
      await core.leaf.link.restore();
    }
    const restoredAt = Date.now();
    await waitUntil(() => region.source.availability().up, 30_000, 'XMR working again');
    const again = await loggedIn();
    const share = await again.mine(() => true);
    expect(await again.submit(share)).toMatchObject({ error: null, result: { status: 'OK' } });
    say(
      `xmr job feed: work stopped ${stoppedMs} ms after the cut (silence limit ${SILENCE_S} s), ` +
        `a share accepted ${Date.now() - restoredAt} ms after the link returned`,
    );
    miner.close();
    again.close();
  });
});
