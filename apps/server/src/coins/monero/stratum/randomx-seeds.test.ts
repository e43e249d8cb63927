// The XMR port's RandomX memory rule (randomx-seeds.ts) on a real RandomXPool (one thread, light
// mode: real 256 MiB caches) with a fake clock for its idle release (only setTimeout/clearTimeout
// are faked; the thread and its messages are real).
import { setImmediate as tick } from 'node:timers/promises';
import { RandomXPool } from '@manjam/randomx';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followTemplateSeeds, holdSeeds } from './randomx-seeds.js';

const logger = pino({ level: 'silent' });
const IDLE_MS = 600_000;
const seed = (name: string): Uint8Array => new TextEncoder().encode(`manjam seeds test ${name}`);
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const [A, B, C] = [seed('A'), seed('B'), seed('C')] as const;
const BLOB = new Uint8Array(76);

/** Lets the chained prepares run (a built seed answers at once; a new one waits for its thread). */
const settle = async (randomx: RandomXPool): Promise<void> => {
  await vi.waitFor(() => expect(randomx.figures().building).toBe(0), { timeout: 60_000, interval: 20 });
  for (let i = 0; i < 5; i++) await tick();
};

describe("the XMR port's RandomX seeds", { timeout: 120_000 }, () => {
  let randomx: RandomXPool;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    randomx = new RandomXPool({ threads: 1, idleReleaseMs: IDLE_MS });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await randomx.close();
  });

  it('builds on the first login, the next epoch only while miners are on, releases after the idle time and builds again on the next login', async () => {
    // No miner: templates build nothing, not even the announced next epoch.
    followTemplateSeeds(randomx, { seedHash: A, nextSeedHash: B }, logger);
    await tick();
    expect(randomx.liveSeeds()).toEqual([]);
    expect(randomx.figures().threads).toBe(0);

    // The first login builds its template's seed at once; a share hashed meanwhile waits for it.
    const first = holdSeeds(randomx, { seedHash: A, nextSeedHash: undefined }, logger);
    expect(randomx.liveSeeds()).toEqual([hex(A)]);
    expect(randomx.figures()).toMatchObject({ building: 1, holders: 1, threads: 1 });
    expect(await randomx.hash(A, BLOB)).toHaveLength(32);
    // A second miner: the seed is built already.
    const second = holdSeeds(randomx, { seedHash: A, nextSeedHash: undefined }, logger);
    expect(randomx.figures()).toMatchObject({ seeds: 1, building: 0, holders: 2 });

    // monerod announces the next epoch while miners are on: it is built.
    followTemplateSeeds(randomx, { seedHash: A, nextSeedHash: B }, logger);
    await settle(randomx);
    expect(randomx.liveSeeds()).toEqual([hex(A), hex(B)]);

    // Every miner gone: kept through the idle time, released at its end.
    first();
    second();
    vi.advanceTimersByTime(IDLE_MS - 1);
    // The epoch switched meanwhile, announcing the one after: nothing new is built without miners.
    followTemplateSeeds(randomx, { seedHash: B, nextSeedHash: C }, logger);
    await tick();
    expect(randomx.liveSeeds()).toEqual([hex(A), hex(B)]);
    vi.advanceTimersByTime(1);
    expect(randomx.liveSeeds()).toEqual([]);
    expect(randomx.figures()).toMatchObject({ seeds: 0, threads: 0, holders: 0 });

    // The next login builds its template's seed, then the next epoch's.
    const third = holdSeeds(randomx, { seedHash: B, nextSeedHash: C }, logger);
    expect(randomx.liveSeeds()).toEqual([hex(B)]);
    // The next epoch's build starts when the current one's ends: wait for both, not for a quiet moment between.
    await vi.waitFor(() => expect(randomx.liveSeeds()).toEqual([hex(B), hex(C)]), {
      timeout: 60_000,
      interval: 20,
    });
    third();
  });

  it('does not build the next epoch when the only miner left while the current seed was being built', async () => {
    const release = holdSeeds(randomx, { seedHash: A, nextSeedHash: B }, logger);
    release();
    await settle(randomx);
    expect(randomx.liveSeeds()).toEqual([hex(A)]);
  });

  it('keeps following the templates of a pool that never releases (full mode)', async () => {
    const keeper = new RandomXPool({ threads: 1 });
    try {
      followTemplateSeeds(keeper, { seedHash: A, nextSeedHash: B }, logger);
      await settle(keeper);
      expect(keeper.liveSeeds()).toEqual([hex(A), hex(B)]);
      vi.advanceTimersByTime(10 * IDLE_MS);
      expect(keeper.liveSeeds()).toEqual([hex(A), hex(B)]);
    } finally {
      await keeper.close();
    }
  });
});
