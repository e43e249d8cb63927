// KAS through the whole pool as `npm start` composes it (startPool on the kaspad simnet dev
// chain): port live on /api/pool/ports, an account's worker mining real kHeavyHash shares, the
// shares stored with the DAA score's subsidy as their PPS value, credited in sompi, the worker on
// /api/workers with its hashrate, and a block found on the port held by kaspad.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerAndLogin, type Session } from '../../../../../../e2e/support/api.js';
import { startTestPool, type TestPool } from '../../../../../../e2e/support/pool.js';
import { ensureKaspad } from '../../../../../../scripts/kaspad.mjs';
import { KaspaTestMiner } from '../../../../test/support/coins/kaspa/stratum/miner.js';
import { creditPps } from '../../../accounting/math.js';
import { isKaspaChain } from '../family.js';

let pool: TestPool;
let session: Session;
let miner: KaspaTestMiner;

beforeAll(async () => {
  const installed = await ensureKaspad({ quiet: true });
  if (!installed.ok) throw new Error(installed.reason);
  pool = await startTestPool({ coins: ['KAS'] });
  session = await registerAndLogin(pool.baseUrl, 'kas');
  miner = await KaspaTestMiner.connect(pool.kheavyhashPort as number);
}, 300_000);

afterAll(async () => {
  miner?.close();
  await pool?.stop();
});

const runtime = () => {
  const chain = pool.pool.chains.find(isKaspaChain);
  if (!chain) throw new Error('the pool runs no KAS chain');
  return chain.runtime;
};

describe('the kHeavyHash port of the pool', () => {
  it('is listed live on /api/pool/ports with the port the pool opened', async () => {
    const ports = await api<{ ports: { algorithm: string; live: boolean; port: number }[] }>(
      pool.baseUrl,
      '/api/pool/ports',
    );
    expect(ports.ports.find((p) => p.algorithm === 'kheavyhash')).toEqual(
      expect.objectContaining({ name: 'kHeavyHash', live: true, port: pool.kheavyhashPort }),
    );
  });

  it('reports KAS up with its DAA score on /api/health', async () => {
    const health = await api<{ chains: { coin: string; ok: boolean; height: number | null }[] }>(
      pool.baseUrl,
      '/api/health',
    );
    const kas = health.chains.find((c) => c.coin === 'KAS');
    expect(kas).toMatchObject({ ok: true });
    expect(kas?.height).toBeGreaterThan(0);
  });

  it('takes an account worker, stores its shares at the subsidy of their DAA score and credits them in sompi', async () => {
    await miner.request('mining.subscribe', ['lolMiner 1.88', 'EthereumStratum/1.0.0']);
    const auth = await miner.request('mining.authorize', [`${session.user.username}.gpu1`, 'x']);
    expect(auth.result).toBe(true);
    const job = await miner.jobCount(1);
    const source = runtime().source;
    const nonce = miner.find(job, (pow, share) => pow <= share && pow > source.current!.target);
    expect((await miner.submit('gpu1', job, nonce)).result).toBe(true);
    expect((await miner.submit('gpu1', job, nonce)).error?.[1]).toMatch(/duplicate/i);

    type Share = { difficulty: number; network_difficulty: number; reward: string };
    let shares: Share[] = [];
    const until = Date.now() + 30_000;
    while (shares.length === 0 && Date.now() < until) {
      ({ rows: shares } = await pool.pool.db.query<Share>(
        `SELECT s.difficulty, s.network_difficulty, r.reward::text AS reward
         FROM shares s JOIN template_rewards r ON r.coin = s.coin AND r.height = s.height
         WHERE s.coin = 'KAS'`,
      ));
      if (shares.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(shares).toHaveLength(1);
    // Simnet's subsidy before the deflationary phase: 500 KAS a block (kaspad's dagconfig).
    expect(BigInt(shares[0]!.reward)).toBe(50_000_000_000n);

    await pool.pool.accounting?.runOnce();
    const { rows: ledger } = await pool.pool.db.query<{ amount: string; reason: string }>(
      "SELECT amount::text AS amount, reason FROM ledger_entries WHERE coin = 'KAS' ORDER BY id",
    );
    // PPS+ at the kHeavyHash fee (0.9 %), from the stored share and its height's subsidy.
    const expected = creditPps(
      [
        {
          payeeId: 1,
          difficulty: shares[0]!.difficulty,
          networkDifficulty: shares[0]!.network_difficulty,
          subsidy: BigInt(shares[0]!.reward),
          count: 1,
        },
      ],
      90,
      { pool: 0n, payees: new Map() },
    );
    expect(ledger).toEqual([
      { amount: String(expected.credits.get(1)), reason: 'pps' },
      { amount: String(expected.fee), reason: 'fee' },
    ]);
    expect(BigInt(ledger[0]!.amount)).toBeGreaterThan(0n);
  }, 120_000);

  it('shows the worker on /api/workers as mining KAS with a hashrate', async () => {
    type Workers = { workers: { name: string; coin: string; hashrate: number; shares: number }[] };
    let list: Workers = { workers: [] };
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      list = await api<Workers>(pool.baseUrl, '/api/workers', { token: session.token });
      if (list.workers.some((w) => w.name === 'gpu1' && w.shares > 0)) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const worker = list.workers.find((w) => w.name === 'gpu1');
    expect(worker).toMatchObject({ coin: 'KAS', shares: 1 });
    expect(worker?.hashrate).toBeGreaterThan(0);
  });

  it('submits a block found on the port to kaspad and records it pending at its DAA score', async () => {
    const source = runtime().source;
    const job = miner.jobs.at(-1)!;
    const daaScore = Number(source.current!.daaScore);
    const nonce = miner.find(job, (pow) => pow <= source.current!.target);
    expect((await miner.submit('gpu1', job, nonce)).result).toBe(true);
    type Block = { height: number; status: string; hash: string; reward: string };
    let block: Block | undefined;
    const until = Date.now() + 30_000;
    while (!block && Date.now() < until) {
      ({
        rows: [block],
      } = await pool.pool.db.query<Block>(
        "SELECT height, status, hash, reward::text AS reward FROM blocks WHERE coin = 'KAS'",
      ));
      if (!block) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(block).toMatchObject({ status: 'pending', reward: '50000000000' });
    expect(block!.height).toBeGreaterThanOrEqual(daaScore - 5);
    const held = await runtime().node.getBlock(block!.hash, false);
    expect(held).toBeDefined();
  }, 60_000);
});
