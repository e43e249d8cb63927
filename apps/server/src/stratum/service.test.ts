import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { blockHashHex, difficultyToTarget, MIN_SHARE_DIFFICULTY } from '@manjam/protocol';
import { BlocksRepository } from '../db/repositories/blocks.js';
import type { PoolEventMap } from '../events.js';
import {
  BTC_REGTEST_ADDRESS as ADDRESS,
  EASY_BITS,
  FakeTemplateSource,
  syntheticTemplate,
} from '../../test/support/coins/bitcoin/stratum/fake-source.js';
import {
  closeSharedDatabase,
  sharedDatabase,
  startUnitPool,
  type UnitPool,
} from '../../test/support/coins/bitcoin/stratum/unit-pool.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });
let pool: UnitPool | undefined;
beforeAll(async () => {
  await sharedDatabase();
});
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});
afterAll(closeSharedDatabase);

function once<K extends keyof PoolEventMap>(p: UnitPool, name: K): Promise<PoolEventMap[K]> {
  return new Promise((resolve) => {
    const off = p.events.on(name, (e) => {
      off();
      resolve(e);
    });
  });
}

describe('stratum service', () => {
  it('authorizes a Manjam account username in any case, with a worker suffix', async () => {
    pool = await startUnitPool();
    const db = pool.database.db;
    await db.query(
      "INSERT INTO users (username, email, password_hash) VALUES ('Samira', 'samira@x.io', 'h') ON CONFLICT DO NOTHING",
    );
    const user = (await db.query<{ id: number }>("SELECT id FROM users WHERE username = 'Samira'")).rows[0];
    const miner = await pool.connect();
    await miner.subscribe();
    const connected = once(pool, 'worker.connected');
    expect((await miner.authorize('samira.antminer-s19')).result).toBe(true);
    expect(await connected).toMatchObject({ coin: 'BTC', userId: user?.id, login: 'samira.antminer-s19' });
    expect((await miner.authorize('nobody.rig')).error).toEqual([
      24,
      'Unauthorized worker: not a BTC address or a Manjam account',
      null,
    ]);
    expect((await miner.authorize('rltc1qxvenxvenxvenxvenxvenxvenxvenxvenuxr9sr')).error?.[0]).toBe(24);
  });

  it('records a found block with the node verdict whatever it is, and tells the pool', async () => {
    const source = new FakeTemplateSource('BTC', ADDRESS, syntheticTemplate({ bits: EASY_BITS }));
    source.submitAnswer = { status: 'rejected', nodeResult: 'bad-cb-amount' };
    pool = await startUnitPool({}, source);
    const miner = await pool.connect();
    await miner.subscribe();
    await miner.authorize(`${ADDRESS}.finder`);
    const job = await miner.waitForJob();
    const share = miner.findShare(job, 'sha256d', {
      accept: (b, j) => b.hashValue <= j.template.networkTarget,
    });
    const found = once(pool, 'block.found');
    expect((await miner.submit(`${ADDRESS}.finder`, share)).result).toBe(true);
    const hash = blockHashHex(share.built.header);
    expect(await found).toMatchObject({
      coin: 'BTC',
      height: 101,
      hash,
      status: 'rejected',
      finderUserId: null,
    });
    expect(source.submitted[0]?.expected).toEqual({ height: 101, hash });
    expect(source.submitted[0]?.blockHex.startsWith(share.built.header.toString('hex'))).toBe(true);
    const row = await new BlocksRepository(pool.database.db).byHash(hash);
    expect(row).toMatchObject({
      status: 'rejected',
      submitResult: 'bad-cb-amount',
      reward: 5_000_000_000n,
      fees: 0n,
      subsidy: 5_000_000_000n,
    });
  });

  it.each([
    { coin: 'BTC', algorithm: 'sha256d', address: ADDRESS, difficulty: 1e-6 },
    {
      coin: 'LTC',
      algorithm: 'scrypt',
      address: 'rltc1qxvenxvenxvenxvenxvenxvenxvenxvenuxr9sr',
      difficulty: 1e-3,
    },
  ] as const)(
    'submits a $coin share under the network target but over the share target as a block first, accepts it and credits it at the share difficulty',
    async ({ coin, algorithm, address, difficulty }) => {
      // The port's minimum sits far above the network difficulty (regtest's): the only way a share
      // target can be harder than the network's.
      const source = new FakeTemplateSource(coin, address, syntheticTemplate({ bits: EASY_BITS }));
      pool = await startUnitPool(
        { ports: [{ port: 0, coin, vardiff: { start: difficulty, min: difficulty, max: 1e9 } }] },
        source,
      );
      const miner = await pool.connect();
      await miner.subscribe();
      await miner.authorize(`${address}.between`);
      const job = await miner.waitForJob();
      expect(job.difficulty).toBe(difficulty);
      // Looked for at the lowest difficulty (the test miner only keeps hashes under a job's target).
      const share = miner.findShare({ ...job, difficulty: MIN_SHARE_DIFFICULTY[algorithm] }, algorithm, {
        accept: (b, j) =>
          b.hashValue <= j.template.networkTarget && b.hashValue > difficultyToTarget(difficulty, algorithm),
      });
      const found = once(pool, 'block.found');
      expect(await miner.submit(`${address}.between`, share)).toMatchObject({ result: true, error: null });
      const hash = blockHashHex(share.built.header);
      expect(await found).toMatchObject({ coin, height: 101, hash });
      expect(source.submitted.map((b) => b.expected)).toEqual([{ height: 101, hash }]);
      expect(pool.stratum.stats().sharesAccepted).toBe(1);
      expect(await new BlocksRepository(pool.database.db).byHash(hash)).toMatchObject({
        shareDifficulty: difficulty,
      });
      // The same header again: a duplicate, never a second block.
      expect((await miner.submit(`${address}.between`, share)).error?.[1]).toBe('Duplicate share');
      expect(source.submitted).toHaveLength(1);
    },
  );

  it('cuts a connection whose shares are mostly invalid and refuses that login from that address for a while', async () => {
    pool = await startUnitPool({ ban: { checkAfterShares: 4, invalidPercent: 50, durationSeconds: 60 } });
    const miner = await pool.connect();
    await miner.subscribe();
    await miner.authorize(ADDRESS);
    const job = await miner.waitForJob();
    for (let i = 0; i < 4; i++)
      void miner
        .request('mining.submit', [ADDRESS, job.id, 'zz', '00000000', '00000000'])
        .catch(() => undefined);
    await miner.closedPromise;
    const again = await pool.connect();
    await again.subscribe();
    expect((await again.authorize(ADDRESS)).error).toEqual([
      24,
      'Worker refused for a while: too many invalid shares',
      null,
    ]);
    expect((await again.authorize(`${ADDRESS}.other`)).result).toBe(true);
    expect(pool.stratum.stats().bans).toEqual({ connection: 1, ip: 0 });
  });

  it('caps connections per IP without disturbing the ones already open', async () => {
    pool = await startUnitPool({ maxConnectionsPerIp: 2 });
    const first = await pool.connect();
    const second = await pool.connect();
    const third = await pool.connect();
    await third.closedPromise;
    expect((await first.subscribe()).error).toBeNull();
    expect((await second.subscribe()).error).toBeNull();
    expect(pool.stratum.stats().connections).toBe(2);
  });

  it('asks every miner to reconnect on a graceful stop and flushes their accepted shares', async () => {
    pool = await startUnitPool();
    const miner = await pool.connect();
    await miner.subscribe();
    await miner.authorize(`${ADDRESS}.last`);
    const share = miner.findShare(await miner.waitForJob(), 'sha256d');
    expect((await miner.submit(`${ADDRESS}.last`, share)).result).toBe(true);
    const flushed = once(pool, 'shares.flushed');
    await pool.stratum.stop();
    await miner.closedPromise;
    expect(miner.received.at(-1)).toBe('{"id":null,"method":"client.reconnect","params":[]}');
    expect((await flushed).count).toBe(1);
    expect(pool.stratum.stats()).toMatchObject({ connections: 0, sharesAccepted: 1 });
  });

  it('closes a connection silent for longer than the idle timeout and keeps a talking one', async () => {
    pool = await startUnitPool({ idleTimeoutSeconds: 10 });
    const silent = await pool.connect();
    const talking = await pool.connect();
    await silent.subscribe();
    const opened = Date.now();
    const keepTalking = setInterval(
      () => void talking.request('mining.extranonce.subscribe', []).catch(() => undefined),
      2_000,
    );
    await silent.closedPromise;
    clearInterval(keepTalking);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(9_900);
    expect(talking.closed).toBe(false);
    expect((await talking.subscribe()).error).toBeNull();
  });
});

describe('stratum on a scrypt coin', () => {
  it('validates scrypt shares in worker threads and reports pool hashrate', async () => {
    const source = new FakeTemplateSource(
      'LTC',
      'rltc1qxvenxvenxvenxvenxvenxvenxvenxvenuxr9sr',
      syntheticTemplate({ coinbasevalue: 5_000_000_000 }),
    );
    pool = await startUnitPool(
      { ports: [{ port: 0, coin: 'LTC', vardiff: { start: 2e-5, min: 2e-5, max: 1e9 } }] },
      source,
    );
    const miner = await pool.connect();
    await miner.subscribe();
    await miner.authorize('rltc1qxvenxvenxvenxvenxvenxvenxvenxvenuxr9sr.gpu');
    const job = await miner.waitForJob();
    const replies = await Promise.all(
      [0, 1, 2].map((n) =>
        miner.submit(
          'rltc1qxvenxvenxvenxvenxvenxvenxvenxvenuxr9sr.gpu',
          miner.findShare(job, 'scrypt', { extranonce2: n }),
        ),
      ),
    );
    expect(replies.map((r) => r.result)).toEqual([true, true, true]);
    // 3 shares x 2e-5 x 2^16 hashes over the time mined, which is under the 60 s floor of a window
    // (shares/hashrate.ts: a window counts from its first share when that is younger).
    expect(pool.stratum.hashrate('LTC')).toBeCloseTo((3 * 2e-5 * 65536) / 60, 6);
  });
});
