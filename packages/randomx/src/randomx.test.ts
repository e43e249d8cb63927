import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RandomXPool } from './index.js';
import { MONEROD, REGTEST_SEED, text, VECTORS } from '../test/vectors.js';

// Each new seed builds a 256 MiB cache (about a second; more on a busy machine).
describe('RandomXPool (light mode, two threads)', { timeout: 60_000 }, () => {
  const pool = new RandomXPool({ threads: 2 });
  afterAll(() => pool.close());

  it('matches every published test vector, hashing on both threads at once', async () => {
    const hashes = await Promise.all(VECTORS.map((v) => pool.hash(v.key, v.input)));
    expect(hashes.map((h) => Buffer.from(h).toString('hex'))).toEqual(VECTORS.map((v) => v.hash));
  });

  it("matches monerod's proof-of-work hashes of Monero blocks", async () => {
    const hashes = await Promise.all(MONEROD.map((v) => pool.hash(REGTEST_SEED, v.blob)));
    expect(hashes.map((h) => Buffer.from(h).toString('hex'))).toEqual(MONEROD.map((v) => v.hash));
  });

  it('keeps the two most recent seeds and releases older ones', async () => {
    await pool.hash(text('test key 000'), text('This is a test'));
    await pool.prepare(text('test key 002'));
    expect(pool.liveSeeds()).toEqual([
      Buffer.from('test key 000').toString('hex'),
      Buffer.from('test key 002').toString('hex'),
    ]);
    // A seed that was dropped is rebuilt on demand and still hashes correctly.
    const again = await pool.hash(VECTORS[3]!.key, VECTORS[3]!.input);
    expect(Buffer.from(again).toString('hex')).toBe(VECTORS[3]!.hash);
  });

  it('leaves the event loop free while it hashes', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const blobs = Array.from({ length: 8 }, (_, i) => text(`blob ${i}`));
    await Promise.all(blobs.map((blob) => pool.hash(text('test key 000'), blob)));
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5);
  });

  it('rejects a seed the library cannot take', async () => {
    await expect(pool.hash(new Uint8Array(0), text('x'))).rejects.toThrow('a RandomX seed is 1 to 64 bytes');
  });
});

// Memory on demand: nothing before the first use, everything back to the system once the pool has
// been neither held nor used for idleReleaseMs (a fake clock: only setTimeout/clearTimeout are faked,
// the threads and their messages are real).
describe('RandomXPool with idleReleaseMs (light mode, one thread)', { timeout: 120_000 }, () => {
  const MIB = 1024 * 1024;
  const IDLE_MS = 60_000;
  // A seed no other test of this file uses: its cache is built and freed by this pool alone.
  const key = text('manjam idle release');
  const keyHex = Buffer.from(key).toString('hex');
  const input = text('This is a test');
  let pool: RandomXPool;
  let released: (readonly string[])[];
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    released = [];
    pool = new RandomXPool({
      threads: 1,
      idleReleaseMs: IDLE_MS,
      onIdleRelease: (seeds) => released.push(seeds),
    });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await pool.close();
  });
  it('starts no thread and builds nothing before it is used', () => {
    expect(pool.figures()).toEqual({ queued: 0, hashes: 0, seeds: 0, building: 0, threads: 0, holders: 0 });
    expect(pool.wanted).toBe(false);
  });

  it('keeps its cache while held, gives the memory back idleReleaseMs after the last hold ends, and builds again on the next use', async () => {
    const before = process.memoryUsage.rss();
    const release = pool.hold();
    expect(pool.wanted).toBe(true);
    const preparing = pool.prepare(key);
    // A hash asked for while its seed is being built waits for it.
    const hashing = pool.hash(key, input);
    expect(pool.figures()).toMatchObject({ seeds: 1, building: 1, queued: 1, threads: 1, holders: 1 });
    await preparing;
    const hash = Buffer.from(await hashing).toString('hex');
    expect(pool.figures()).toMatchObject({ seeds: 1, building: 0, queued: 0, hashes: 1, threads: 1 });
    const built = process.memoryUsage.rss();
    expect(built - before).toBeGreaterThan(200 * MIB);

    // Held: no release however long.
    vi.advanceTimersByTime(10 * IDLE_MS);
    expect(pool.liveSeeds()).toEqual([keyHex]);
    release();
    release(); // letting go twice counts once
    expect(pool.figures().holders).toBe(0);
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(pool.liveSeeds()).toEqual([keyHex]);
    expect(released).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(pool.liveSeeds()).toEqual([]);
    expect(released).toEqual([[keyHex]]);
    expect(pool.figures()).toMatchObject({ seeds: 0, building: 0, threads: 0 });
    // The cache and the thread are freed (the thread ends after releasing its VM).
    await vi.waitFor(() => expect(process.memoryUsage.rss()).toBeLessThan(built - 200 * MIB), {
      timeout: 20_000,
      interval: 50,
    });

    // The next use starts a thread and builds the seed again: the same hash.
    const again = await pool.hash(key, input);
    expect(Buffer.from(again).toString('hex')).toBe(hash);
    expect(pool.figures()).toMatchObject({ seeds: 1, building: 0, threads: 1, hashes: 2 });
  });

  it('does not release while a new hold came during the wait, nor while it is being used', async () => {
    await pool.prepare(key);
    // Used without a hold: released idleReleaseMs after its last use.
    vi.advanceTimersByTime(IDLE_MS - 1_000);
    await pool.hash(key, input);
    vi.advanceTimersByTime(IDLE_MS - 1_000);
    expect(pool.liveSeeds()).toEqual([keyHex]);
    const release = pool.hold();
    vi.advanceTimersByTime(2 * IDLE_MS);
    expect(pool.liveSeeds()).toEqual([keyHex]);
    release();
    vi.advanceTimersByTime(IDLE_MS);
    expect(pool.liveSeeds()).toEqual([]);
  });

  it('keeps its caches without idleReleaseMs', async () => {
    const keeper = new RandomXPool({ threads: 1 });
    try {
      expect(keeper.wanted).toBe(true);
      keeper.hold()();
      await keeper.prepare(key);
      vi.advanceTimersByTime(24 * 3_600_000);
      expect(keeper.liveSeeds()).toEqual([keyHex]);
    } finally {
      await keeper.close();
    }
  });
});
