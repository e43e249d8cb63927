// Node faults under real miners: a node killed with kill -9 (restarted by the dev chain's
// supervisor), a node that stops answering (SIGSTOP) past the silence limit, and failover to a
// second endpoint. Prints the figures an operator cares about.
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { chainHealth } from '../chains.js';
import { freePort } from '../../../devchain/child.js';
import { type DevChain } from '../devchain/index.js';
import { startBtcTestChain, startLtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { WORK_PAUSED_MESSAGE } from './coin-availability.js';
import { testLogger } from '../../../../test/support/coins/bitcoin/stratum/harness.js';
import {
  connectMiner,
  keepSubmitting,
  nextAvailability,
  nextCleanJob,
  recordAvailability,
  sharesStoredBetween,
  shareOn,
  startPoolOnNodes,
  type PoolOnNodes,
} from '../../../../test/support/coins/bitcoin/stratum/pool-on-nodes.js';
import { StratumTestClient } from '../../../../test/support/coins/bitcoin/stratum/client.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const say = (line: string): boolean => process.stdout.write(`${line}\n`);
const seconds = (ms: number): string => (ms / 1000).toFixed(1);

/** A miner reconnecting like firmware does: retry while the port turns it away. */
async function reconnect(pool: PoolOnNodes, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await connectMiner(pool);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await delay(200);
    }
  }
}

const coins = [
  { coin: 'BTC', difficulty: 3e-10, start: () => startBtcTestChain({ logger: testLogger }) },
  { coin: 'LTC', difficulty: 2e-5, start: () => startLtcTestChain({ logger: testLogger, mweb: 'off' }) },
] as const;

describe.each(coins)(
  '$coin node killed with kill -9 under a connected miner',
  ({ coin, difficulty, start }) => {
    let chain: DevChain;
    let pool: PoolOnNodes;
    beforeAll(async () => {
      chain = await start();
      // A silence limit below the dev chain supervisor's shortest restart back-off (0.5 s) plus
      // the node's start: a node back from the snapshot in under a second must still have been
      // down long enough for the pool to pause work, which is what this test watches.
      pool = await startPoolOnNodes({ coin, chain, endpoints: [chain.rpc], silenceMs: 400, difficulty });
    });
    afterAll(async () => {
      await pool?.close();
      await chain?.stop();
    });

    it('restarts the node, sends a clean job within 10 s of the node answering, and mining goes on', async () => {
      const { client } = await connectMiner(pool);
      expect((await client.submit(pool.login, shareOn(pool, client))).result).toBe(true);
      const availability = recordAvailability(pool);
      // Every clean job from now on: the recovery job may go out in the same turn as the node's
      // first answer, so listening starts before the kill.
      const cleanJobs: number[] = [];
      const offClean = pool.events.on('template.new', (event) => {
        if (event.newTip) cleanJobs.push(Date.now());
      });
      const [pid] = chain.nodeProcessIds();
      const killedAt = Date.now();
      process.kill(pid as number, 'SIGKILL');
      const downAt = await availability.after(false, killedAt);
      await client.closedPromise;
      expect(client.received.join('')).toContain(WORK_PAUSED_MESSAGE);
      const answeredAt = await availability.after(true, downAt);
      await vi.waitUntil(() => cleanJobs.some((at) => at >= downAt), { timeout: 10_000, interval: 20 });
      const cleanAt = cleanJobs.find((at) => at >= downAt) as number;
      availability.stop();
      offClean();
      expect(chain.nodeProcessIds()[0]).not.toBe(pid);
      expect(cleanAt - answeredAt).toBeLessThan(10_000);
      const again = await reconnect(pool);
      expect(again.job.clean).toBe(true);
      expect((await again.client.submit(pool.login, shareOn(pool, again.client))).result).toBe(true);
      await again.client.close();
      say(
        `${coin} kill -9: node answered ${seconds(answeredAt - killedAt)} s after the kill; clean job ${seconds(cleanAt - answeredAt)} s after it answered`,
      );
    });
  },
);

describe('a BTC node that stops answering (SIGSTOP) past the silence limit', () => {
  let chain: DevChain;
  let pool: PoolOnNodes;
  let stopped: number | undefined;
  beforeAll(async () => {
    chain = await startBtcTestChain({ logger: testLogger });
    pool = await startPoolOnNodes({
      coin: 'BTC',
      chain,
      endpoints: [chain.rpc],
      silenceMs: 3_000,
      difficulty: 3e-10,
    });
  });
  afterEach(() => {
    if (stopped !== undefined) process.kill(stopped, 'SIGCONT');
    stopped = undefined;
  });
  afterAll(async () => {
    await pool?.close();
    await chain?.stop();
  });

  it('refuses shares, closes its miners and new ones, credits nothing, and resumes with a clean job after SIGCONT', async () => {
    const { client } = await connectMiner(pool);
    const submitting = keepSubmitting(pool, client);
    const down = nextAvailability(pool, false);
    const [pid] = chain.nodeProcessIds();
    if (pid === undefined) throw new Error('no bcoin process');
    stopped = pid;
    process.kill(stopped, 'SIGSTOP');
    const silentAt = Date.now();
    const downAt = await down;
    expect(downAt - silentAt).toBeGreaterThanOrEqual(2_500);
    const downSince = pool.watcher.status().downSince?.getTime() ?? 0;
    expect(Math.abs(downSince - downAt)).toBeLessThan(100);
    const health = chainHealth('BTC', pool.nodes, pool.watcher);
    const records = await submitting;
    const closedAt = Date.now();
    expect(client.received.join('')).toContain(WORK_PAUSED_MESSAGE);
    expect(records.filter((r) => r.at > downAt && r.reply?.result === true)).toEqual([]);
    const refused = await StratumTestClient.connect(pool.port);
    await refused.closedPromise;
    expect(refused.received.join('')).toContain(WORK_PAUSED_MESSAGE);
    expect(await health).toMatchObject({
      coin: 'BTC',
      ok: false,
      downSince: new Date(downSince).toISOString(),
    });
    await delay(1_000);
    const clean = nextCleanJob(pool);
    const contAt = Date.now();
    process.kill(stopped, 'SIGCONT');
    stopped = undefined;
    const cleanAt = await clean;
    expect(cleanAt - contAt).toBeLessThan(10_000);
    const again = await reconnect(pool);
    expect(again.job.clean).toBe(true);
    expect((await again.client.submit(pool.login, shareOn(pool, again.client))).result).toBe(true);
    await again.client.close();
    await delay(600); // the share writer's batch
    const credited = await sharesStoredBetween(pool, downAt, contAt);
    expect(credited).toBe(0);
    const refusedShares = records.filter(
      (r) => r.at > downAt && r.reply?.error?.[1] === WORK_PAUSED_MESSAGE,
    ).length;
    say(
      `BTC SIGSTOP: work stopped ${seconds(downAt - silentAt)} s after the node went silent (limit 3 s); miner closed ` +
        `${seconds(closedAt - downAt)} s after that (${refusedShares} shares answered "${WORK_PAUSED_MESSAGE}"); ` +
        `clean job ${seconds(cleanAt - contAt)} s after SIGCONT; shares credited after the limit: ${credited}`,
    );
  });
});

describe('two endpoints for one coin, the first one dead', () => {
  let chain: DevChain;
  let pool: PoolOnNodes;
  beforeAll(async () => {
    chain = await startBtcTestChain({ logger: testLogger });
    const closed = { ...chain.rpc, url: `http://127.0.0.1:${await freePort()}/` };
    pool = await startPoolOnNodes({
      coin: 'BTC',
      chain,
      endpoints: [closed, chain.rpc],
      silenceMs: 3_000,
      difficulty: 3e-10,
    });
  });
  afterAll(async () => {
    await pool?.close();
    await chain?.stop();
  });

  it('takes its templates from the second node and submits found blocks there', async () => {
    expect(pool.nodes.current.rpc.endpoint.url).toBe(chain.rpc.url);
    expect(pool.watcher.status().up).toBe(true);
    const { client, job } = await connectMiner(pool);
    expect((await client.submit(pool.login, shareOn(pool, client))).result).toBe(true);
    const block = client.findShare(job, 'sha256d', {
      accept: (b, j) => b.hashValue <= j.template.networkTarget,
    });
    const found = new Promise<string>((resolve) => pool.events.on('block.found', (e) => resolve(e.status)));
    expect((await client.submit(pool.login, block)).result).toBe(true);
    expect(await found).toBe('pending');
    await client.close();
  });
});
