import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SourceAvailability } from '../source.js';
import { WORK_PAUSED_MESSAGE } from './coin-availability.js';
import {
  BTC_REGTEST_ADDRESS as ADDRESS,
  FakeTemplateSource,
  syntheticTemplate,
} from '../../../../test/support/coins/bitcoin/stratum/fake-source.js';
import {
  closeSharedDatabase,
  sharedDatabase,
  startUnitPool,
  type UnitPool,
} from '../../../../test/support/coins/bitcoin/stratum/unit-pool.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

/** A fake source whose node health the test switches. */
class NodeBackedSource extends FakeTemplateSource {
  private state: SourceAvailability = { up: true, since: new Date(), message: 'node answers' };
  /** The silence limit has passed but the health check has not announced it yet. */
  silentUnannounced = false;

  silentPastLimit(): boolean {
    return !this.state.up || this.silentUnannounced;
  }
  private readonly watchers = new Set<(availability: SourceAvailability) => void>();

  availability(): SourceAvailability {
    return this.state;
  }

  onAvailability(listener: (availability: SourceAvailability) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  setUp(up: boolean): void {
    this.state = {
      up,
      since: new Date(),
      message: up ? 'node answers' : 'BTC: no node has answered for 30 s',
    };
    for (const listener of this.watchers) listener(this.state);
  }
}

let pool: UnitPool | undefined;
beforeAll(async () => {
  await sharedDatabase();
});
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});
afterAll(closeSharedDatabase);

async function miner(p: UnitPool) {
  const client = await p.connect();
  await client.subscribe();
  expect((await client.authorize(`${ADDRESS}.rig`)).result).toBe(true);
  return { client, job: await client.waitForJob() };
}

describe('a coin whose nodes stop answering', () => {
  it('tells its miners work is paused, answers their shares with 21, closes them and turns new miners away', async () => {
    const source = new NodeBackedSource();
    pool = await startUnitPool({}, source);
    const { client, job } = await miner(pool);
    const share = client.findShare(job, 'sha256d');
    source.setUp(false);
    expect(await client.waitForLine((line) => line.includes('client.show_message'))).toContain(
      WORK_PAUSED_MESSAGE,
    );
    expect((await client.submit(`${ADDRESS}.rig`, share)).error).toEqual([21, WORK_PAUSED_MESSAGE, null]);
    await client.closedPromise;
    const late = await pool.connect();
    await late.closedPromise;
    expect(late.received.join('')).toContain(WORK_PAUSED_MESSAGE);
    expect(pool.stratum.stats()).toMatchObject({ sharesAccepted: 0, connections: 0 });
  });

  it('credits no share once the silence limit has passed, even before the pause is announced', async () => {
    const source = new NodeBackedSource();
    pool = await startUnitPool({}, source);
    const { client, job } = await miner(pool);
    source.silentUnannounced = true;
    const during = await client.submit(`${ADDRESS}.rig`, client.findShare(job, 'sha256d'));
    expect(during.error).toEqual([21, WORK_PAUSED_MESSAGE, null]);
    source.silentUnannounced = false;
    expect((await client.submit(`${ADDRESS}.rig`, client.findShare(job, 'sha256d'))).result).toBe(true);
    expect(pool.stratum.stats()).toMatchObject({ sharesAccepted: 1 });
  });

  it('welcomes miners back with a clean job once a node answers again', async () => {
    const source = new NodeBackedSource();
    pool = await startUnitPool({}, source);
    source.setUp(false);
    source.setUp(true);
    // The watcher's first template after the node answers: same tip, so not a new tip by itself.
    source.push(syntheticTemplate({ curtime: 1_700_000_100 }), false);
    const { client, job } = await miner(pool);
    expect(job.clean).toBe(true);
    expect((await client.submit(`${ADDRESS}.rig`, client.findShare(job, 'sha256d'))).result).toBe(true);
  });

  it('starts a pool whose node is already silent with its port closed to miners', async () => {
    const source = new NodeBackedSource();
    source.setUp(false);
    pool = await startUnitPool({}, source);
    const client = await pool.connect();
    await client.closedPromise;
    expect(client.received.join('')).toContain(WORK_PAUSED_MESSAGE);
  });
});
