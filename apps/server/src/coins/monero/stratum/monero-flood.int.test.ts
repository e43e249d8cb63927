// Issue 25 item 1 on the XMR port, over real sockets on a regtest monerod: connections flooding
// the port with garbage shares (random nonces, an all-zero claimed result) from other loopback
// addresses do not starve an honest miner, are cut once each, and never get a nonce hashed twice.
import { moneroHashMeetsDifficulty } from '@manjam/protocol/monero';
import type { RandomXPool } from '@manjam/randomx';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../../config/index.js';
import type { MoneroDevChain } from '../devchain.js';
import { MoneroFlooder, moneroHonestRound } from '../../../../test/support/coins/monero/stratum/flooder.js';
import type { MoneroMinedShare } from '../../../../test/support/coins/monero/stratum/miner.js';
import {
  FIXED_VARDIFF,
  startStandalone,
  type StandalonePort,
} from '../../../../test/support/coins/monero/stratum/standalone.js';

const logger = pino({ level: 'error' });
const NETWORK_DIFFICULTY = 5n;
const notBlock = (share: MoneroMinedShare): boolean =>
  !moneroHashMeetsDifficulty(share.hash, NETWORK_DIFFICULTY);

const flooders = async (
  port: number,
  poolAddress: string,
  addresses: string[],
  perAddress: number,
  perSecond: number,
  window?: number,
): Promise<MoneroFlooder[]> =>
  Promise.all(
    addresses.flatMap((localAddress, a) =>
      Array.from({ length: perAddress }, (_, c) =>
        MoneroFlooder.start({
          port,
          login: `${poolAddress}.flood${a}x${c}`,
          localAddress,
          perSecond,
          ...(window === undefined ? {} : { window }),
        }),
      ),
    ),
  );

const until = async (probe: () => boolean, what: () => string, timeoutMs = 30_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** The config's default bound of shares waiting per connection. */
const QUEUE_PER_CONNECTION = configSchema.parse({}).stratum.powQueue.perConnection;
const max = (values: number[]): number => Math.max(...values);

describe('fair, bounded RandomX checking on the XMR port under a flood', () => {
  let standalone: StandalonePort;
  let chain: MoneroDevChain;
  let randomx: RandomXPool;

  beforeAll(async () => {
    standalone = await startStandalone({ logger, networkDifficulty: NETWORK_DIFFICULTY, initialBlocks: 1 });
    ({ chain, randomx } = standalone);
  });

  afterAll(async () => {
    await standalone?.stop();
  });

  it('checks and accepts every honest share while 4 connections from 2 addresses flood garbage, each flooder waiting behind its own shares', async () => {
    // Bans off: the flood goes on for the whole test (the scheduler alone protects the honest miner).
    const { server, port } = await standalone.addServer(FIXED_VARDIFF, undefined, {
      ban: { enabled: false },
    });
    const honest = await standalone.connect(port);
    expect((await honest.login(`${chain.poolAddress}.honest`)).error).toBeNull();
    const quiet = await moneroHonestRound(honest, 4, NETWORK_DIFFICULTY);
    expect(quiet.answers).toEqual(['OK', 'OK', 'OK', 'OK']);

    const flood = await flooders(port, chain.poolAddress, ['127.0.0.2', '127.0.0.3'], 2, 100, 64);
    for (const f of flood) f.flood();
    // Every flooder's own queue is full (the pool says so) before the honest miner submits.
    await until(
      () => server.powQueue.queued >= flood.length * (QUEUE_PER_CONNECTION - 1),
      () => `the flooders to fill their queues: ${JSON.stringify(server.powQueue)}`,
    );
    const hashesBefore = randomx.figures().hashes;
    const underFlood = await moneroHonestRound(honest, 6, NETWORK_DIFFICULTY);
    const busyQueue = server.powQueue;
    for (const f of flood) f.stop();

    expect(underFlood.answers).toEqual(['OK', 'OK', 'OK', 'OK', 'OK', 'OK']);
    // Each flooder was served in turn (its own garbage hashed and refused), none was cut (bans off).
    for (const f of flood) {
      expect(f.closed).toBe(false);
      expect(f.count('Invalid result')).toBeGreaterThan(0);
      expect(f.count('OK')).toBe(0);
    }
    // The hasher was kept busy by the flood (it is not idle), yet nothing was refused for the pool's capacity.
    expect(randomx.figures().hashes - hashesBefore).toBeGreaterThan(underFlood.ms.length);
    expect(busyQueue.refused.pool).toBe(0);
    expect(busyQueue.refused['own-queue']).toBeGreaterThan(0);
    const checked = flood.reduce((n, f) => n + f.count('Invalid result'), 0);
    const refused = busyQueue.refused['own-queue'];
    process.stdout.write(
      `[figure] XMR honest submit round trip: quiet max ${max(quiet.ms).toFixed(0)} ms; ` +
        `under 4 flooders (2 addresses, 100/s each) max ${max(underFlood.ms).toFixed(0)} ms, ` +
        `${underFlood.answers.length}/6 accepted; flooders: ${checked} hashed and refused, ${refused} refused unchecked\n`,
    );
    // Before issue 25 the honest miner's shares waited 22 s each, or were not checked at all.
    // (A loose bound: this machine's load moves; the drill prints p50/p99 against the quiet figure.)
    expect(max(underFlood.ms)).toBeLessThan(10_000);
    for (const f of flood) f.close();
  });

  it('cuts each flooding connection exactly once, bans no address for two cuts, and the honest miner keeps mining', async () => {
    const { server, port } = await standalone.addServer();
    const honest = await standalone.connect(port);
    expect((await honest.login(`${chain.poolAddress}.steady`)).error).toBeNull();
    const flood = await flooders(port, chain.poolAddress, ['127.0.0.4', '127.0.0.5'], 2, 200);
    for (const f of flood) f.flood();
    await Promise.all(flood.map((f) => f.whenClosed));
    // Shares still being hashed for the cut connections end without a second verdict.
    await until(
      () => server.powQueue.queued === 0 && server.powQueue.hashing === 0,
      () => 'the queue to drain',
    );
    const after = await moneroHonestRound(honest, 1, NETWORK_DIFFICULTY);
    expect(after.answers).toEqual(['OK']);
    expect(server.bans.counts).toEqual({ connection: 4, ip: 0 });
    for (const f of flood) expect(f.count('OK')).toBe(0);
  });

  it('never hashes a nonce twice on a job: re-sent with the same wrong result or the right one, it is a duplicate', async () => {
    const { port } = await standalone.addServer();
    const miner = await standalone.connect(port);
    await miner.login(`${chain.poolAddress}.again`);
    const share = await miner.mine(notBlock);
    const before = randomx.figures().hashes;
    const forged = '00'.repeat(32);
    expect((await miner.submit(share, { result: forged })).error?.message).toBe('Invalid result');
    expect((await miner.submit(share, { result: forged })).error?.message).toBe('Duplicate share');
    expect((await miner.submit(share)).error?.message).toBe('Duplicate share');
    expect(randomx.figures().hashes - before).toBe(1);
    // A claim under the job's difficulty is refused on its face, without a hash.
    const high = await standalone.connect(port);
    await high.login(`${chain.poolAddress}.high`, 'd=1000000');
    const low = await high.mine(() => true);
    const beforeLow = randomx.figures().hashes;
    expect((await high.submit(low, { result: 'ff'.repeat(32) })).error?.message).toBe('Low difficulty share');
    expect(randomx.figures().hashes - beforeLow).toBe(0);
  });
});
