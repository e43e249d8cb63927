// RandomX memory on demand, on a real regtest monerod: the XMR port builds no cache while no miner
// is logged in (new templates included), builds the seed at the first login and accepts that
// miner's share, lets every cache go (threads stopped) once no miner has been logged in for the
// idle time, and builds again for the next login.
import { moneroHashMeetsDifficulty } from '@manjam/protocol/monero';
import type { RandomXPool } from '@manjam/randomx';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MoneroMinedShare } from '../../../../test/support/coins/monero/stratum/miner.js';
import {
  startStandalone,
  type StandalonePort,
} from '../../../../test/support/coins/monero/stratum/standalone.js';

const logger = pino({ level: 'warn' });
/** monerod --fixed-difficulty: most difficulty-1 shares are not blocks. */
const NETWORK_DIFFICULTY = 5n;
/** The idle time of this test's pool (the pool's default is chains.XMR.randomxIdleReleaseSeconds, 600 s). */
const IDLE_MS = 1_500;
const notBlock = (share: MoneroMinedShare): boolean =>
  !moneroHashMeetsDifficulty(share.hash, NETWORK_DIFFICULTY);

describe('the XMR port builds RandomX caches only while miners are logged in', () => {
  let standalone: StandalonePort;
  let randomx: RandomXPool;
  let port = 0;
  let login = '';

  beforeAll(async () => {
    standalone = await startStandalone({
      logger,
      networkDifficulty: NETWORK_DIFFICULTY,
      initialBlocks: 1,
      serverThreads: 1,
      idleReleaseMs: IDLE_MS,
    });
    randomx = standalone.randomx;
    ({ port } = await standalone.addServer());
    login = `${standalone.chain.poolAddress}.rig1`;
  });

  afterAll(async () => {
    await standalone?.stop();
  });

  /** One accepted share from a fresh login; the seed of its job. */
  const mineOne = async (): Promise<string> => {
    const miner = await standalone.connect(port);
    expect((await miner.login(login)).error).toBeNull();
    const seed = miner.job?.seed_hash ?? '';
    // The login started building the seed: the share below waits for it if it comes first.
    expect(randomx.liveSeeds()).toEqual([seed]);
    const share = await miner.mine(notBlock);
    expect(await miner.submit(share)).toMatchObject({ error: null, result: { status: 'OK' } });
    expect(randomx.figures()).toMatchObject({ seeds: 1, building: 0, queued: 0, threads: 1, holders: 1 });
    miner.close();
    return seed;
  };

  it('holds no cache and no thread before a login, even as new templates come', async () => {
    const { source, chain } = standalone;
    const before = source.current?.seq ?? 0;
    await chain.mine(1);
    await vi.waitFor(() => expect(source.current?.seq ?? 0).toBeGreaterThan(before), { timeout: 30_000 });
    expect(randomx.liveSeeds()).toEqual([]);
    expect(randomx.figures()).toEqual({
      queued: 0,
      hashes: 0,
      seeds: 0,
      building: 0,
      threads: 0,
      holders: 0,
    });
  });

  it('builds the seed at the first login and accepts the miner share', async () => {
    await mineOne();
    expect(standalone.sink.accepted).toHaveLength(1);
  });

  it('releases every cache and stops its thread once no miner has been logged in for the idle time', async () => {
    await vi.waitFor(() => expect(randomx.figures().holders).toBe(0), { timeout: 5_000 });
    const left = Date.now();
    await vi.waitFor(() => expect(randomx.liveSeeds()).toEqual([]), {
      timeout: IDLE_MS + 10_000,
      interval: 50,
    });
    expect(Date.now() - left).toBeGreaterThanOrEqual(IDLE_MS - 100);
    expect(randomx.figures()).toMatchObject({ seeds: 0, threads: 0, queued: 0 });
  });

  it('builds the seed again for the next login, whose share is accepted', async () => {
    const hashesBefore = randomx.figures().hashes;
    await mineOne();
    expect(standalone.sink.accepted).toHaveLength(2);
    expect(randomx.figures().hashes).toBe(hashesBefore + 1);
  });
});
