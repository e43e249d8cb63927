// Issue 25 item 1 on a Scrypt port, over real sockets on litecoind regtest: connections flooding a
// high-difficulty port with garbage submits (each needs a Scrypt hash to refuse) from other
// loopback addresses do not starve an honest miner on the same worker threads, and each is cut once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain } from '../devchain/index.js';
import { startLtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { StratumTestClient } from '../../../../test/support/coins/bitcoin/stratum/client.js';
import {
  StratumFlooder,
  stratumHonestRound,
} from '../../../../test/support/coins/bitcoin/stratum/flooder.js';
import {
  startPoolOnChain,
  testLogger,
  type PoolOnChain,
} from '../../../../test/support/coins/bitcoin/stratum/harness.js';

/** The honest port's difficulty: about half the hashes meet it, so finding a share is instant. */
const LOW_DIFFICULTY = 2e-5;
/** The flooders' port: no random nonce meets it. */
const HIGH_DIFFICULTY = 1e6;

async function startPool(
  chain: DevChain,
  ban: Record<string, unknown>,
  powQueue: Record<string, unknown> = {},
): Promise<PoolOnChain> {
  return startPoolOnChain({
    coin: 'LTC',
    chain,
    ports: [{ start: LOW_DIFFICULTY }, { start: HIGH_DIFFICULTY, min: HIGH_DIFFICULTY }],
    stratum: { ban, powQueue },
  });
}

async function honestMiner(pool: PoolOnChain, login: string): Promise<StratumTestClient> {
  const client = await StratumTestClient.connect(pool.ports[0] as number);
  await client.subscribe();
  expect((await client.authorize(login)).result).toBe(true);
  await client.waitForJob();
  return client;
}

async function flooders(
  pool: PoolOnChain,
  login: string,
  addresses: string[],
  perAddress: number,
  options: { perSecond: number; window?: number },
): Promise<StratumFlooder[]> {
  return Promise.all(
    addresses.flatMap((localAddress) =>
      Array.from({ length: perAddress }, (_, i) =>
        StratumFlooder.start({
          port: pool.ports[1] as number,
          login: `${login}.f${i}`,
          localAddress,
          ...options,
        }),
      ),
    ),
  );
}

const until = async (probe: () => boolean, what: string, timeoutMs = 30_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('fair, bounded Scrypt checking on the LTC ports under a flood', () => {
  let chain: DevChain;

  beforeAll(async () => {
    chain = await startLtcTestChain({ logger: testLogger, mweb: 'off' });
  });

  afterAll(async () => {
    await chain?.stop();
  });

  it('checks and accepts every honest share while 16 connections from 4 addresses flood the Scrypt threads', async () => {
    // Bans off: the flood goes on for the whole test (the fair queue alone protects the honest miner).
    // Each flooder may keep 4 shares waiting: the pool's Scrypt threads hash regtest's light Scrypt
    // about as fast as 16 flooders send, and only one block per height is submitted (the rest of a
    // job is stale behind the pool's own block), so with the default 32 no queue would fill.
    const pool = await startPool(chain, { enabled: false }, { perConnection: 4 });
    const login = `${chain.poolAddress}.honest`;
    try {
      const honest = await honestMiner(pool, login);
      const quiet = await stratumHonestRound(honest, login, 20, 'scrypt');
      expect(quiet.answers.every((a) => a === 'true')).toBe(true);
      const addresses = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
      const flood = await flooders(pool, chain.poolAddress, addresses, 4, { perSecond: 500, window: 64 });
      for (const f of flood) f.flood();
      await until(() => (pool.stratum.stats().sharesRejected.busy ?? 0) > 0, 'a flooder to fill its queue');
      const underFlood = await stratumHonestRound(honest, login, 20, 'scrypt');
      // Every flooder's shares are hashed and refused, not only refused unchecked or stale: the
      // flood goes on until each has been told 'Low difficulty share' at least once.
      await until(
        () => flood.every((f) => f.count('Low difficulty share') > 0),
        'every flooder to have a share hashed and refused',
      );
      for (const f of flood) f.stop();
      // On regtest about half of all hashes meet the network target: a flooder's random share can
      // be a block, which the pool submits first (stratum/block-first.ts) and litecoind takes,
      // moving the tip, so an honest share on the old tip is stale. Every honest share is checked,
      // none refused unchecked: each is accepted, or stale behind a flooder's block.
      const stale = (answer: string) => /stale|job not found/i.test(answer);
      expect(underFlood.answers.every((a) => a === 'true' || stale(a))).toBe(true);
      expect(underFlood.answers.filter((a) => a === 'true').length).toBeGreaterThan(0);
      const refusedLow = flood.reduce((n, f) => n + f.count('Low difficulty share'), 0);
      for (const f of flood) {
        expect(f.closed).toBe(false);
        expect(f.count('Low difficulty share')).toBeGreaterThan(0);
      }
      // A flooder's share is accepted only when its hash meets regtest's network target (a block).
      const accepted = flood.reduce((n, f) => n + f.count('true'), 0);
      const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
      process.stdout.write(
        `[figure] LTC honest submit round trip: quiet p50 ${sorted(quiet.ms)[10]?.toFixed(1)} ms, max ` +
          `${Math.max(...quiet.ms).toFixed(1)} ms; under 16 flooders (4 addresses, 500/s each) p50 ` +
          `${sorted(underFlood.ms)[10]?.toFixed(1)} ms, max ${Math.max(...underFlood.ms).toFixed(1)} ms, ` +
          `${underFlood.answers.filter((a) => a === 'true').length}/20 accepted, the rest stale behind flooders' ` +
          `blocks (${accepted}); flooders: ${refusedLow} hashed and refused, ${pool.stratum.stats().sharesRejected.busy ?? 0} refused unchecked\n`,
      );
      expect(Math.max(...underFlood.ms)).toBeLessThan(5_000);
      await Promise.all(flood.map((f) => f.close()));
      await honest.close();
    } finally {
      await pool.close();
    }
  });

  it('cuts each flooding connection exactly once and bans no address for two cuts; the honest miner keeps mining', async () => {
    // A quarter invalid is enough here: about half of a flooder's random regtest shares are blocks
    // (accepted), the other half refused as low difficulty.
    const pool = await startPool(chain, { invalidPercent: 25 });
    const login = `${chain.poolAddress}.steady`;
    try {
      const honest = await honestMiner(pool, login);
      const flood = await flooders(pool, chain.poolAddress, ['127.0.0.6', '127.0.0.7'], 2, {
        perSecond: 1_000,
      });
      for (const f of flood) f.flood();
      await Promise.all(flood.map((f) => f.client.closedPromise));
      // A flooder's random share that met regtest's target was a block (submitted first): the tip
      // moved, and the honest miner's job follows it once the new notify arrives. Mine on the job
      // of the node's tip; a share is stale only when another late block moved the tip again.
      let after: Awaited<ReturnType<typeof stratumHonestRound>> | undefined;
      for (let attempt = 0; attempt < 3 && !after?.answers.every((a) => a === 'true'); attempt++) {
        const best = await pool.node.rpc.call<string>('getbestblockhash', []);
        await until(() => honest.job?.template.prevHashRpc === best, 'the job on the node tip');
        after = await stratumHonestRound(honest, login, 3, 'scrypt');
        const tipNow = await pool.node.rpc.call<string>('getbestblockhash', []);
        if (tipNow === best) break;
      }
      expect(after?.answers).toEqual(['true', 'true', 'true']);
      // Shares of the cut connections still being hashed ended without another verdict.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(pool.stratum.stats().bans).toEqual({ connection: 4, ip: 0 });
      await honest.close();
    } finally {
      await pool.close();
    }
  });
});
