// The XMR port as `npm start` composes it (startPool: the Monero regtest dev chain, the journal,
// the LoginResolver): a registered account's worker mines with the project's RandomX test miner,
// its honest shares are accepted and stored in the database as XMR shares, a duplicate and a low
// difficulty share are refused, the block it finds is monerod's tip and recorded by the pool, and
// the worker shows on /api/workers with a RandomX hashrate.
import { RandomXPool } from '@manjam/randomx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerAndLogin, type Session } from '../../../../../e2e/support/api.js';
import { startTestPool, type TestPool } from '../../../../../e2e/support/pool.js';
import { MoneroTestMiner } from './testing/miner.js';

let pool: TestPool;
let session: Session;
let miner: MoneroTestMiner;
const randomx = new RandomXPool({ threads: 1 });

beforeAll(async () => {
  pool = await startTestPool({ monero: true });
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
    const daemon = pool.pool.monero?.daemon;
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

  it('takes an account login, stores its honest share (a block at fixed difficulty 1) and refuses a duplicate and a low one', async () => {
    const login = `${session.user.username}.cpu1`;
    const reply = await miner.login(login);
    expect(reply.error).toBeNull();
    const height = (await pool.pool.monero?.daemon.call<{ count: number }>('get_block_count'))?.count ?? 0;
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
    const tip = await pool.pool.monero?.daemon.call<{ block_header: { hash: string } }>(
      'get_last_block_header',
    );
    expect(blocks.rows[0]?.hash).toBe(tip?.block_header.hash);

    // A second worker asking for difficulty 1,000,000 (on the template after the block).
    const high = await MoneroTestMiner.connect(pool.randomxPort as number, randomx);
    await high.login(`${session.user.username}.big`, 'd=1000000');
    const low = await high.mine((s) => s.difficulty < high.difficulty);
    expect((await high.submit(low)).error?.message).toBe('Low difficulty share');
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
});
