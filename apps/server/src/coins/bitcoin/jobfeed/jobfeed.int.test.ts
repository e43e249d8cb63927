// Jobs from the core: a real three-server JetStream cluster (domain core) with a real bcoin regtest
// node behind the core's job feed, and a region (its own leaf server, domain riyadh, reached
// through a link the test cuts) whose Stratum server has no coin node at all.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/db.js';
import { WORK_PAUSED_MESSAGE } from '../stratum/coin-availability.js';
import { StratumTestClient } from '../../../../test/support/coins/bitcoin/stratum/client.js';
import { sleep, waitUntil } from '../../../../test/support/processes.js';
import {
  nextAvailability as availabilityOf,
  nextBlock,
  shareOn,
  startCoreOnFeed,
  startRegionOnFeed,
  type CoreOnFeed,
  type RegionOnFeed,
} from '../../../../test/support/coins/bitcoin/jobfeed.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

/** The region's silence limit (the coin's nodeSilenceSeconds). */
const SILENCE_S = 5;
/** The core's own silence limit for its node. */
const CORE_SILENCE_MS = 3_000;
const TIPS = 30;
const say = (line: string): boolean => process.stdout.write(`${line}\n`);
const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

describe('a region without coin nodes mining on the core job feed', () => {
  let core: CoreOnFeed;
  let database: TestDatabase;
  let region: RegionOnFeed;
  const nextAvailability = (up: boolean) => availabilityOf(region, up);

  beforeAll(async () => {
    [core, database] = await Promise.all([startCoreOnFeed(CORE_SILENCE_MS), openTestDatabase('postgres')]);
    // The region: no node, no pool address; jobs from the core through its own leaf server.
    region = await startRegionOnFeed(core, { database, silenceS: SILENCE_S, instanceId: 1 });
  });

  afterAll(async () => {
    await region?.stop();
    await core?.stop();
    await database?.drop();
  });

  it("gives the region's miner the core node's work, and its shares are accepted", async () => {
    const tip = await core.nodes.current.getBestBlockHash();
    const { client, job } = await region.connectMiner();
    expect(job.template.prevHashRpc).toBe(tip);
    expect(region.source.poolAddress).toBe(core.chain.poolAddress);
    for (let i = 0; i < 5; i++)
      expect((await client.submit(region.login, shareOn(client, false))).result).toBe(true);
    await client.close();
  });

  it("submits a block found at the region through the core, and it becomes the node's tip", async () => {
    const { client } = await region.connectMiner();
    const found = nextBlock(region);
    expect((await client.submit(region.login, shareOn(client, true))).result).toBe(true);
    const block = await found;
    expect(block.status).toBe('pending');
    expect(core.feed.stats.blocksSubmitted).toBe(1);
    expect(await core.nodes.current.getBestBlockHash()).toBe(block.hash);
    // The core's next template builds on it, and reaches the miner as clean work.
    await client.waitForJob((j) => j.clean && j.template.prevHashRpc === block.hash);
    await client.close();
  });

  it("brings a new tip on the core's node to the region's miner as clean_jobs work", async () => {
    const { client } = await region.connectMiner();
    const latencies: number[] = [];
    for (let i = 0; i < TIPS; i++) {
      const before = Date.now();
      const [hash] = await core.chain.mine(1);
      const job = await client.waitForJob((j) => j.clean && j.template.prevHashRpc === hash);
      latencies.push(job.receivedMs - before);
      expect((await client.submit(region.login, shareOn(client, false))).result).toBe(true);
    }
    await client.close();
    const sorted = [...latencies].sort((a, b) => a - b);
    say(
      `job feed: node tip (generatetoaddress sent) -> region miner clean notify over ${TIPS} tips: ` +
        `p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms, max ${sorted.at(-1)} ms`,
    );
    expect(percentile(sorted, 50)).toBeLessThan(2_000);
  });

  it('re-sends a block found while the link to the core is cut, and the node takes it once the link returns', async () => {
    const { client } = await region.connectMiner();
    const block = shareOn(client, true);
    const found = nextBlock(region);
    await core.leaf.link.cut();
    expect((await client.submit(region.login, block)).result).toBe(true);
    const { hash, status } = await found;
    expect(status).toBe('submitted');
    expect(region.source.blocksResending).toBe(1);
    expect(await core.nodes.current.getBestBlockHash()).not.toBe(hash);
    await sleep(1_500);
    const restoredAt = Date.now();
    await core.leaf.link.restore();
    await waitUntil(
      async () => (await core.nodes.current.getBestBlockHash()) === hash,
      30_000,
      'the block on the node',
    );
    say(
      `job feed: block found during a cut reached the node ${Date.now() - restoredAt} ms after the link returned`,
    );
    await waitUntil(() => region.source.blocksResending === 0, 5_000, 'the re-send finished');
    await client.close();
    await waitUntil(() => region.source.availability().up, 30_000, 'the coin up again');
  });

  it('stops the coin when the region is cut from the core past the silence limit, and resumes when the link returns', async () => {
    const { client } = await region.connectMiner();
    const answers: { at: number; result: unknown; error: string | undefined }[] = [];
    const mining = (async () => {
      while (!client.closed) {
        const reply = await client.submit(region.login, shareOn(client, false)).catch(() => null);
        if (reply) answers.push({ at: Date.now(), result: reply.result, error: reply.error?.[1] });
        await sleep(50);
      }
    })();
    const down = nextAvailability(false);
    const cutAt = Date.now();
    await core.leaf.link.cut();
    const downAt = await down;
    await mining;
    expect(downAt - cutAt).toBeGreaterThanOrEqual(SILENCE_S * 1000 - 1_200);
    expect(answers.filter((a) => a.at > downAt && a.result === true)).toEqual([]);
    expect(client.received.join('')).toContain(WORK_PAUSED_MESSAGE);
    const refused = await StratumTestClient.connect(region.port);
    await refused.closedPromise;
    expect(refused.received.join('')).toContain(WORK_PAUSED_MESSAGE);
    const acceptedDuringCut = answers.filter((a) => a.at > cutAt && a.result === true).length;
    const pausedAnswers = answers.filter((a) => a.error === WORK_PAUSED_MESSAGE).length;

    await sleep(3_000);
    const up = nextAvailability(true);
    const restoredAt = Date.now();
    await core.leaf.link.restore();
    const upAt = await up;
    const again = await region.connectMiner();
    expect(again.job.clean).toBe(true);
    expect((await again.client.submit(region.login, shareOn(again.client, false))).result).toBe(true);
    const resumedAt = Date.now();
    await again.client.close();
    say(
      `job feed cut: work stopped ${downAt - cutAt} ms after the cut (silence limit ${SILENCE_S} s; ` +
        `${acceptedDuringCut} shares accepted before, ${pausedAnswers} answered "${WORK_PAUSED_MESSAGE}"); ` +
        `coin up ${upAt - restoredAt} ms after the link returned, a new miner's share accepted ${resumedAt - restoredAt} ms after`,
    );
  });

  it("stops the coin at the region when the core's node is silent, with the core's reason, and resumes with it", async () => {
    const { client } = await region.connectMiner();
    const [pid] = core.chain.nodeProcessIds();
    if (pid === undefined) throw new Error('no bcoin process');
    const down = nextAvailability(false);
    const stoppedAt = Date.now();
    process.kill(pid, 'SIGSTOP');
    try {
      const downAt = await down;
      expect(region.source.availability().message).toMatch(/^BTC: no node has answered for 3 s/);
      await client.closedPromise;
      expect(client.received.join('')).toContain(WORK_PAUSED_MESSAGE);
      const up = nextAvailability(true);
      const contAt = Date.now();
      process.kill(pid, 'SIGCONT');
      const upAt = await up;
      const again = await region.connectMiner();
      expect(again.job.clean).toBe(true);
      expect((await again.client.submit(region.login, shareOn(again.client, false))).result).toBe(true);
      await again.client.close();
      say(
        `job feed: core node SIGSTOPped -> region stopped ${downAt - stoppedAt} ms later (core limit ${CORE_SILENCE_MS} ms); ` +
          `SIGCONT -> region up ${upAt - contAt} ms later`,
      );
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });
});
