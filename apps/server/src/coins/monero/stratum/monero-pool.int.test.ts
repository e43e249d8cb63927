// The XMR port as `npm start` composes it (startPool: the Monero regtest dev chain, the journal,
// the LoginResolver): a registered account's worker mines with the project's RandomX test miner,
// its honest shares are accepted and stored in the database as XMR shares, a duplicate and a low
// difficulty share are refused, the block it finds is monerod's tip and recorded by the pool, and
// the worker shows on /api/workers with a RandomX hashrate. A transaction entering monerod's pool
// makes a richer template at the same height: the height stays credited at its first template's
// reward and the block found on the richer one carries the difference as its fee part.
import { RandomXPool } from '@manjam/randomx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerAndLogin, type Session } from '../../../../../../e2e/support/api.js';
import { startTestPool, type TestPool } from '../../../../../../e2e/support/pool.js';
import {
  hashingBlobTransactionCount,
  MoneroTestMiner,
} from '../../../../test/support/coins/monero/stratum/miner.js';
import { transferWhenNodeAnswers } from '../../../../test/support/coins/monero/transfer.js';
import { isMoneroChain } from '../family.js';

let pool: TestPool;
let session: Session;
let miner: MoneroTestMiner;
const randomx = new RandomXPool({ threads: 1 });

beforeAll(async () => {
  pool = await startTestPool({ coins: ['XMR'] });
  session = await registerAndLogin(pool.baseUrl, 'xmr');
  miner = await MoneroTestMiner.connect(pool.randomxPort as number, randomx);
}, 240_000);

afterAll(async () => {
  miner?.close();
  await pool?.stop();
  await randomx.close();
});

describe('the RandomX port of the pool', () => {
  it('lists XMR on /api/pool/stats before any block is found, with the network difficulty of the monerod template', async () => {
    type Stats = {
      algorithms: { coin: string; networkDifficulty: number | null; networkHeight: number | null }[];
    };
    const stats = await api<Stats>(pool.baseUrl, '/api/pool/stats');
    const xmr = stats.algorithms.find((a) => a.coin === 'XMR');
    const daemon = pool.pool.chains.find(isMoneroChain)?.runtime.daemon;
    if (!daemon) throw new Error('the pool runs no monerod');
    const { block_header: tip } = await daemon.call<{ block_header: { height: number } }>(
      'get_last_block_header',
    );
    expect(xmr?.networkDifficulty).toBeGreaterThan(0);
    expect(xmr?.networkHeight).toBeLessThanOrEqual(tip.height);
  });

  it('is listed live on /api/pool/ports at 1111 in the table and open where the pool put it', async () => {
    const ports = await api<{ ports: { algorithm: string; live: boolean; port: number }[] }>(
      pool.baseUrl,
      '/api/pool/ports',
    );
    expect(ports.ports.find((p) => p.algorithm === 'randomx')).toEqual(
      expect.objectContaining({ live: true, port: pool.randomxPort }),
    );
  });

  /** The RandomX lines of the pool's /metrics for its XMR port, by metric name. */
  const randomxMetrics = async (): Promise<Record<string, number>> => {
    const text = await (await fetch(`${pool.baseUrl}/metrics`)).text();
    const figures: Record<string, number> = {};
    for (const [, name, value] of text.matchAll(
      new RegExp(`^(manjam_randomx_\\w+)\\{port="${pool.randomxPort}"\\} (\\S+)$`, 'gm'),
    ))
      figures[name as string] = Number(value);
    return figures;
  };

  it('shows on /metrics that the RandomX port has built nothing before any XMR miner logged in', async () => {
    expect(await randomxMetrics()).toEqual({
      manjam_randomx_hash_queue: 0,
      manjam_randomx_hashes_total: 0,
      manjam_randomx_seeds: 0,
      manjam_randomx_seeds_building: 0,
      manjam_randomx_threads: 0,
    });
  });

  it('takes an account login, stores its honest share (a block at fixed difficulty 1), refuses a duplicate and holds d= at the network difficulty', async () => {
    const login = `${session.user.username}.cpu1`;
    const reply = await miner.login(login);
    expect(reply.error).toBeNull();
    const height =
      (await pool.pool.chains.find(isMoneroChain)?.runtime.daemon.call<{ count: number }>('get_block_count'))
        ?.count ?? 0;
    const share = await miner.mine(() => true);
    expect(await miner.submit(share)).toMatchObject({ error: null, result: { status: 'OK' } });
    expect((await miner.submit(share)).error?.message).toBe('Duplicate share');

    // monerod --fixed-difficulty 1: the share is a block, and monerod's tip.
    const until = Date.now() + 30_000;
    let blocks: { rows: { coin: string; height: number; status: string; hash: string }[] } = { rows: [] };
    while (Date.now() < until) {
      blocks = await pool.pool.db.query('SELECT coin, height, status, hash FROM blocks WHERE coin = $1', [
        'XMR',
      ]);
      if (blocks.rows.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(blocks.rows[0]).toMatchObject({ coin: 'XMR', height, status: 'pending' });
    const tip = await pool.pool.chains
      .find(isMoneroChain)
      ?.runtime.daemon.call<{ block_header: { hash: string } }>('get_last_block_header');
    expect(blocks.rows[0]?.hash).toBe(tip?.block_header.hash);

    // A second worker asking for difficulty 1,000,000 is held at the network difficulty (1 here):
    // above it, its miner would discard blocks (stratum/vardiff.ts capAt). A share under the session
    // difficulty is refused in monero-stratum.int.test.ts, on a port whose minimum is 1e6.
    const high = await MoneroTestMiner.connect(pool.randomxPort as number, randomx);
    await high.login(`${session.user.username}.big`, 'd=1000000');
    expect(high.difficulty).toBe(1n);
    high.close();

    const shares = await pool.pool.db.query<{ coin: string; difficulty: number; height: number }>(
      'SELECT coin, difficulty, height FROM shares WHERE coin = $1',
      ['XMR'],
    );
    expect(shares.rows).toEqual([expect.objectContaining({ coin: 'XMR', difficulty: 1, height })]);
    const reward = await pool.pool.db.query<{ reward: string }>(
      'SELECT reward::text AS reward FROM template_rewards WHERE coin = $1 AND height = $2',
      ['XMR', height],
    );
    const templateReward = BigInt(reward.rows[0]?.reward ?? '0');
    expect(templateReward).toBeGreaterThan(0n);

    // PPS+ in XMR atomic units: share difficulty 1 at network difficulty 1 is worth the template's
    // whole reward, less the RandomX fee (1 %), in 2^32 fixed point, floored (accounting/math.ts).
    await pool.pool.accounting?.runOnce();
    const credits = await pool.pool.db.query<{ amount: string; reason: string }>(
      `SELECT amount::text AS amount, reason FROM ledger_entries WHERE coin = 'XMR' ORDER BY id`,
    );
    const gross = templateReward << 32n;
    const fee = (gross * 100n) / 10_000n;
    expect(credits.rows).toEqual([
      { amount: ((gross - fee) >> 32n).toString(), reason: 'pps' },
      { amount: (fee >> 32n).toString(), reason: 'fee' },
    ]);
  }, 120_000);

  it('shows on /metrics the seed the login built and the share hash the pool checked', async () => {
    const figures = await randomxMetrics();
    // One hash: the accepted share's (the duplicate and the low share were refused without one).
    expect(figures).toMatchObject({
      manjam_randomx_hash_queue: 0,
      manjam_randomx_hashes_total: 1,
      manjam_randomx_seeds: 1,
      manjam_randomx_seeds_building: 0,
    });
    // chains.XMR.randomxThreads unset: one per core, at most 4.
    expect(figures.manjam_randomx_threads).toBeGreaterThanOrEqual(1);
  });

  it('shows the worker on /api/workers as a CPU with a RandomX hashrate', async () => {
    type Workers = {
      workers: {
        name: string;
        coin: string;
        hashrate: number;
        shares: number;
        type: string;
        algorithm: string;
      }[];
      totals: { hashrates: { algorithm: string; coin: string; realtime: number }[] };
    };
    let list: Workers = { workers: [], totals: { hashrates: [] } };
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      list = await api<Workers>(pool.baseUrl, '/api/workers', { token: session.token });
      if (list.workers.some((w) => w.name === 'cpu1' && w.shares > 0)) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const worker = list.workers.find((w) => w.name === 'cpu1');
    expect(worker).toMatchObject({ coin: 'XMR', shares: 1, type: 'cpu', algorithm: 'randomx' });
    expect(worker?.hashrate).toBeGreaterThan(0);
    const randomx = list.totals.hashrates.find((h) => h.algorithm === 'randomx');
    expect(randomx).toMatchObject({ coin: 'XMR' });
    expect(randomx?.realtime).toBeGreaterThan(0);
  });

  it('credits a height at its first template when a transaction makes a richer one, the block carrying the difference as fees', async () => {
    const monero = pool.pool.chains.find(isMoneroChain)?.runtime;
    if (!monero?.wallet) throw new Error('the pool runs no monero-wallet-rpc');
    const { daemon, wallet } = monero;
    const { count: height } = await daemon.call<{ count: number }>('get_block_count');
    const first = await miner.nextJob((job) => job.height === height);
    const txs = (job: { blob: string }): number => hashingBlobTransactionCount(Buffer.from(job.blob, 'hex'));
    expect(txs(first)).toBe(1);
    await wallet.call('refresh');
    const { address } = await wallet.call<{ address: string }>('create_address', { account_index: 0 });
    const { tx_hash: txHash } = await transferWhenNodeAnswers<{ tx_hash: string }>(wallet, {
      destinations: [{ amount: 1_000_000_000_000, address }],
    });
    // Within chains.XMR.mempoolRefreshMs (default 10 s) of the transaction entering monerod's pool.
    const fresh = await miner.nextJob((job) => job.height === height && txs(job) === 2);
    const share = await miner.mine(() => true, { job: fresh });
    expect(await miner.submit(share)).toMatchObject({ error: null, result: { status: 'OK' } });

    type Row = { id: number; reward: string; subsidy: string; fees: string; hash: string };
    let block: Row | undefined;
    const until = Date.now() + 30_000;
    while (!block && Date.now() < until) {
      const { rows } = await pool.pool.db.query<Row>(
        `SELECT id, reward::text AS reward, subsidy::text AS subsidy, fees::text AS fees, hash
         FROM blocks WHERE coin = 'XMR' AND height = $1`,
        [height],
      );
      block = rows[0];
      if (!block) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (!block) throw new Error(`no XMR block recorded at ${height}`);
    const mined = await daemon.call<{ tx_hashes?: string[] }>('get_block', { hash: block.hash });
    expect(mined.tx_hashes).toEqual([txHash]);
    const { rows: kept } = await pool.pool.db.query<{ reward: string }>(
      "SELECT reward::text AS reward FROM template_rewards WHERE coin = 'XMR' AND height = $1",
      [height],
    );
    const credited = BigInt(kept[0]?.reward ?? '0');
    const fees = BigInt(block.fees);
    expect(BigInt(block.subsidy)).toBe(credited);
    expect(fees).toBeGreaterThan(0n);
    expect(BigInt(block.reward)).toBe(credited + fees);

    // PPS at the first template's reward: every XMR share so far (this one and the block share
    // above) at its height's recorded reward, with the carried fractions (accounting/math.ts), so
    // the totals are floor(sum(net) / 2^32) and floor(sum(fee) / 2^32).
    await pool.pool.accounting?.runOnce();
    const { rows: valued } = await pool.pool.db.query<{ reward: string }>(
      `SELECT r.reward::text AS reward FROM shares s JOIN template_rewards r ON r.coin = s.coin AND r.height = s.height
       WHERE s.coin = 'XMR' AND s.credited ORDER BY s.id`,
    );
    expect(valued.map((row) => BigInt(row.reward)).at(-1)).toBe(credited);
    let net = 0n;
    let poolFee = 0n;
    for (const row of valued) {
      const gross = BigInt(row.reward) << 32n;
      const fee = (gross * 100n) / 10_000n;
      net += gross - fee;
      poolFee += fee;
    }
    const { rows: totals } = await pool.pool.db.query<{ reason: string; total: string }>(
      `SELECT reason, sum(amount)::text AS total FROM ledger_entries
       WHERE coin = 'XMR' AND (reason = 'pps' OR starts_with(reference, 'pps-fee:')) GROUP BY reason ORDER BY reason`,
    );
    expect(totals).toEqual([
      { reason: 'fee', total: (poolFee >> 32n).toString() },
      { reason: 'pps', total: (net >> 32n).toString() },
    ]);
    // The fee part: planned PPLNS-style over the window (credited when the block matures).
    const { rows: plan } = await pool.pool.db.query<{ total: string }>(
      'SELECT sum(amount)::text AS total FROM block_credit_plans WHERE block_id = $1',
      [block.id],
    );
    expect(BigInt(plan[0]?.total ?? '0')).toBe(fees);
  }, 300_000);
});
