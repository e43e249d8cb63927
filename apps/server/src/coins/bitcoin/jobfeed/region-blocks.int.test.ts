// Issue 25 item 7: a block found at a region reaches the core at once. Real NATS (a three-server
// core cluster of domain core, the region's own leaf server of domain riyadh), a real bcoin
// regtest node behind the core's job feed, a region whose Stratum server has no node (logins on
// PGlite: the database plays no part in a block's way to the core).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../../test/support/db.js';
import { sleep, waitUntil } from '../../../../test/support/processes.js';
import { CORE_ATTEMPT_MS } from './core-submit.js';
import {
  ERROR_LEVEL,
  capturingLogger,
  leafRestartCycle,
  nextBlock,
  shareOn,
  startCoreOnFeed,
  startRegionOnFeed,
  type CoreOnFeed,
  type RegionOnFeed,
} from '../../../../test/support/coins/bitcoin/jobfeed.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

/** Target of the issue: a block is at the core this soon after the region's leaf is back. */
const LEAF_BACK_TARGET_MS = 2_000;
const say = (line: string): boolean => process.stdout.write(`${line}\n`);

describe("a region's found block on its way to the core", () => {
  let core: CoreOnFeed;
  let database: TestDatabase;
  let region: RegionOnFeed;
  const log = capturingLogger();

  beforeAll(async () => {
    // The job feed publisher on servers 1 and 2: server 0 carries the region's leaf link, so
    // killing the publisher's server leaves the region linked to the core.
    [core, database] = await Promise.all([
      startCoreOnFeed(30_000, { feedServers: [1, 2] }),
      openTestDatabase('pglite'),
    ]);
    region = await startRegionOnFeed(core, { database, silenceS: 30, instanceId: 3, logger: log.logger });
  });

  afterAll(async () => {
    await region?.stop();
    await core?.stop();
    await database?.drop();
  });

  it("puts a block found while the region's leaf server was dead on the core's node within 2 s of the leaf being back", async () => {
    const { client } = await region.connectMiner();
    const cycle = await leafRestartCycle(core, region, client, 3_000);
    await client.close();
    say(
      `[region blocks] leaf killed, block found, leaf restarted: on the core's node ${cycle.leafBackToDeliveredMs} ms ` +
        `after the leaf was back (${cycle.restartToDeliveredMs} ms after its restart began), ` +
        `${cycle.foundToDeliveredMs} ms after it was found; recorded "${cycle.recorded}"`,
    );
    expect(cycle.recorded).toBe('submitted');
    expect(cycle.leafBackToDeliveredMs).toBeLessThanOrEqual(LEAF_BACK_TARGET_MS);
    await waitUntil(() => region.source.blocksResending === 0, 5_000, 'the delivery finished');
    expect(core.feed.stats.blocksSubmitted).toBe(1);
    const undelivered = log.lines.filter((l) => l.level >= ERROR_LEVEL && /found block/.test(l.msg));
    expect(undelivered).toEqual([]);
  });

  it("asks the core for the block's status when the answer is lost with a core server, and logs no error while the core is reachable", async () => {
    const { client } = await region.connectMiner();
    const [bcoin] = core.chain.nodeProcessIds();
    if (bcoin === undefined) throw new Error('no bcoin process');
    const feedServer = core.cluster.servers.indexOf(`nats://${core.feedConnection.getServer()}`);
    expect(feedServer).toBeGreaterThan(0);
    const before = log.lines.length;
    const submittedBefore = core.feed.stats.blocksSubmitted;
    const block = shareOn(client, true);
    const found = nextBlock(region);
    // The core's node holds the block's submit; the core's NATS server dies meanwhile.
    process.kill(bcoin, 'SIGSTOP');
    let contAt = 0;
    try {
      expect((await client.submit(region.login, block)).result).toBe(true);
      await sleep(500);
      await core.cluster.kill(feedServer);
      await sleep(CORE_ATTEMPT_MS);
    } finally {
      contAt = Date.now();
      process.kill(bcoin, 'SIGCONT');
    }
    const { hash } = await found;
    await waitUntil(
      async () => (await core.nodes.current.getBestBlockHash()) === hash,
      30_000,
      "the block on the core's node",
    );
    const onNodeMs = Date.now() - contAt;
    await waitUntil(() => region.source.blocksResending === 0, 30_000, 'the delivery finished');
    const deliveredMs = Date.now() - contAt;
    await core.cluster.restart(feedServer);
    await client.close();
    const lines = log.lines.slice(before);
    const statusAsked = lines.some((l) => /asking for the block's status/.test(l.msg));
    say(
      `[region blocks] core server killed with the answer in flight: block on the core's node ${onNodeMs} ms, ` +
        `delivery confirmed at the region ${deliveredMs} ms after the node resumed; status asked: ${statusAsked}; ` +
        `submitted to the core's nodes ${core.feed.stats.blocksSubmitted - submittedBefore} time(s); ` +
        `error lines: ${lines.filter((l) => l.level >= ERROR_LEVEL).length}`,
    );
    expect(lines.filter((l) => l.level >= ERROR_LEVEL)).toEqual([]);
    expect(lines.some((l) => /cannot be reached|unreachable/.test(l.msg))).toBe(false);
    expect(statusAsked).toBe(true);
    expect(core.feed.stats.blocksSubmitted - submittedBefore).toBe(1);
    expect(deliveredMs).toBeLessThan(5_000);
  });
});
