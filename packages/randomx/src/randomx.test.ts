import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RandomXPool } from './index.js';

// RandomX's own published test vectors (tevador/RandomX src/tests/tests.cpp, hash tests 1a-1f,
// RandomX v1 as used by Monero).
const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const hex = (value: string): Uint8Array => Uint8Array.from(Buffer.from(value, 'hex'));
const VECTORS = [
  {
    key: text('test key 000'),
    input: text('This is a test'),
    hash: '639183aae1bf4c9a35884cb46b09cad9175f04efd7684e7262a0ac1c2f0b4e3f',
  },
  {
    key: text('test key 000'),
    input: text('Lorem ipsum dolor sit amet'),
    hash: '300a0adb47603dedb42228ccb2b211104f4da45af709cd7547cd049e9489c969',
  },
  {
    key: text('test key 000'),
    input: text('sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'),
    hash: 'c36d4ed4191e617309867ed66a443be4075014e2b061bcdaf9ce7b721d2b77a8',
  },
  {
    key: text('test key 001'),
    input: text('sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'),
    hash: 'e9ff4503201c0c2cca26d285c93ae883f9b1d30c9eb240b820756f2d5a7905fc',
  },
  {
    key: text('test key 001'),
    input: hex(
      '0b0b98bea7e805e0010a2126d287a2a0cc833d312cb786385a7c2f9de69d25537f584a9bc9977b00000000666fd8753bf61a8631f12984e3fd44f4014eca629276817b56f32e9b68bd82f416',
    ),
    hash: 'c56414121acda1713c2f2a819d8ae38aed7c80c35c2a769298d34f03833cd5f1',
  },
  {
    // The ISUB_R edge case: a 31-byte key.
    key: hex('7797373ea4633194640bf8d8c3b66724d6aa7bd2dc20e009df2f8f1710abe8'),
    input: hex(
      '1010e1eaf8cf067b37b5f0ee031ab23ed1755e090a3af4415830145853e2be3e1f6821fed84dae58d00e00da5214d6c1f2d0622e0abd51f9373d04e0b0f8e6d6514d90689721c4aac5a9bb0d',
    ),
    hash: '78af2a1864c42abce36d2e8983e13df99b2af0ce1362999af09fab004d4435a8',
  },
];

// Real monerod 0.18.0.0 on a regtest chain (seed: the genesis block id): calc_pow of a template's
// hashing blob, and the pow_hash of the block mined at height 111 (its hashing blob, nonce 0).
const REGTEST_SEED = hex('418015bb9ae982a1975da7d79277c2705727a56894ba0fb246adaabb1f4632e3');
const MONEROD = [
  {
    blob: hex(
      '1010c88e9cd806b07152239fc9dfed6517fc282becbbb072c4e26f886972c3432599af5035472900000000b2ac9e760d52d43d9d01f402df53174798e4ba8880094a566cae2db22151198504',
    ),
    hash: '4f918f7846edc7700983c64a6b16292e0332b3b1df2afe63362f7d444fd83067',
  },
  {
    blob: hex(
      '1010cd8e9cd806b07152239fc9dfed6517fc282becbbb072c4e26f886972c3432599af5035472900000000b9b51304d8de3cac6e4b32b07b7fa82d27df1391127ecd28334abed914d1665d04',
    ),
    hash: '2288d40da89e4df795e0f27b9539750882097a73733127a1362e19a088fde710',
  },
];

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

// Full mode: a 2 GiB dataset per seed built from the cache (about 40 s on two busy cores), the
// same hashes many times faster. One seed only: a second would take another 2 GiB.
describe('RandomXPool (full mode, two threads)', { timeout: 300_000 }, () => {
  const pool = new RandomXPool({ threads: 2, mode: 'full', keepSeeds: 1 });
  afterAll(() => pool.close());

  it('gives the published hashes from its dataset', async () => {
    const sameKey = VECTORS.filter((v) => Buffer.from(v.key).equals(Buffer.from(text('test key 000'))));
    expect(sameKey).toHaveLength(3);
    const hashes = await Promise.all(sameKey.map((v) => pool.hash(v.key, v.input)));
    expect(hashes.map((h) => Buffer.from(h).toString('hex'))).toEqual(sameKey.map((v) => v.hash));
  });
});
