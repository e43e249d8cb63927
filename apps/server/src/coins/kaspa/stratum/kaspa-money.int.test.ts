// KAS money end to end, through the pool as `npm start` composes it (startPool on the kaspad
// simnet dev chain with its funded kaspawallet daemon): a registered account whose KAS payout
// address belongs to an OUTSIDE kaspawallet (its own daemon and keys, never the pool wallet)
// mines a block on the kHeavyHash port; the block is recorded pending, held once a chain block
// merges it blue, confirmed at the coin table's maturity (DAA score), its PPS+ credit is its DAA
// score's subsidy less the fee, a payout run pays it from the pool wallet, and the outside wallet
// receives exactly the amount paid. Figures are printed.
import { coinbaseMaturityOf } from '@manjam/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerAndLogin, type Session } from '../../../../../../e2e/support/api.js';
import { startTestPool, type TestPool } from '../../../../../../e2e/support/pool.js';
import { ensureKaspad } from '../../../../../../scripts/kaspad.mjs';
import { KaspaTestMiner } from '../../../../test/support/coins/kaspa/stratum/miner.js';
import { BalancesRepository } from '../../../db/repositories/balances.js';
import type { RunningWallet } from '../dev-processes.js';
import type { KaspaDevChain } from '../devchain.js';
import { isKaspaChain } from '../family.js';
import type { KaspaAccountingChain } from '../wallet.js';

let pool: TestPool;
let session: Session & { password: string };
let miner: KaspaTestMiner;
let dev: KaspaDevChain;
let chain: KaspaAccountingChain;
let outside: RunningWallet;
const figures: string[] = [];
const kas = (sompi: bigint): string =>
  `${sompi / 10n ** 8n}.${(sompi % 10n ** 8n).toString().padStart(8, '0')}`;

/** Runs accounting cycles (beside the pool's own loop) until `read` satisfies `done`, or `ms` passed. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    await pool.pool.accounting?.runOnce();
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

type BlockRow = {
  id: number;
  height: number;
  hash: string;
  status: string;
  reward: string;
  confirmations: number;
  planned: boolean;
};
const blocksOf = async (): Promise<BlockRow[]> =>
  (
    await pool.pool.db.query<BlockRow>(
      "SELECT id, height, hash, status, reward::text AS reward, confirmations, planned_at IS NOT NULL AS planned FROM blocks WHERE coin = 'KAS' ORDER BY id",
    )
  ).rows;

async function moneyOf(username: string): Promise<{ paid: bigint; balance: bigint; payouts: number }> {
  const { rows: payees } = await pool.pool.db.query<{ id: number }>(
    "SELECT p.id FROM payees p JOIN users u ON u.id = p.user_id WHERE p.coin = 'KAS' AND u.username = $1",
    [username],
  );
  const payee = payees[0]?.id ?? 0;
  const { rows } = await pool.pool.db.query<{ amount: string }>(
    "SELECT amount::text AS amount FROM payouts WHERE payee_id = $1 AND status <> 'failed'",
    [payee],
  );
  return {
    paid: rows.reduce((sum, r) => sum + BigInt(r.amount), 0n),
    balance: await new BalancesRepository(pool.pool.db).get(payee, 'KAS'),
    payouts: rows.length,
  };
}

beforeAll(async () => {
  const installed = await ensureKaspad({ quiet: true });
  if (!installed.ok) throw new Error(installed.reason);
  pool = await startTestPool({ coins: ['KAS'] });
  const family = pool.pool.chains.find(isKaspaChain);
  const accounting = family?.runtime.accounting();
  if (!family?.runtime.devchain || !accounting)
    throw new Error('the pool runs no KAS dev chain with a wallet');
  dev = family.runtime.devchain;
  chain = accounting;
  outside = await dev.startWallet('outside');
  session = await registerAndLogin(pool.baseUrl, 'kaspay');
  await api(pool.baseUrl, '/api/settings/payout-address', {
    method: 'PUT',
    token: session.token,
    body: { address: outside.address, coin: 'KAS', password: session.password },
  });
  miner = await KaspaTestMiner.connect(pool.kheavyhashPort as number);
  await miner.request('mining.subscribe', ['BzMiner-v21.0.3', 'EthereumStratum/1.0.0']);
  expect((await miner.request('mining.authorize', [`${session.user.username}.ks0`, 'x'])).result).toBe(true);
  await miner.jobCount(1);
}, 400_000);

afterAll(async () => {
  miner?.close();
  await pool?.stop();
  process.stdout.write(`[KAS money through the pool]\n  ${figures.join('\n  ')}\n`);
});

describe('KAS money through the pool', () => {
  it('credits a found block, confirms it at the DAA maturity and pays the outside wallet to the sompi', async () => {
    const source = pool.pool.chains.find(isKaspaChain)!.runtime.source;
    const job = miner.jobs.at(-1)!;
    const nonce = miner.find(job, (pow) => pow <= source.current!.target);
    expect((await miner.submit('ks0', job, nonce)).result).toBe(true);
    const found = performance.now();
    const [block] = await until(blocksOf, (rows) => rows.length > 0);
    expect(block).toMatchObject({ status: 'pending', reward: '50000000000' });
    const credited = await until(
      () => moneyOf(session.user.username),
      (m) => m.balance + m.paid > 0n,
    );
    const owed = credited.balance + credited.paid;
    expect(owed).toBeGreaterThan(0n);

    // Held (merged blue) once kaspad has a chain block on top; pending until the DAA maturity.
    await dev.mine(2);
    expect(await chain.holdsBlock(0, block!.hash)).toBe(true);
    // Maturity counts DAA score, which rises slower than blocks when kaspaminer mines fast
    // (300 blocks took the score up by 193 here): mine until the tip is that far past the block.
    const maturity = coinbaseMaturityOf('KAS');
    let mined = 0;
    while ((await chain.getBlockCount()) - block!.height + 1 < maturity) {
      await dev.mine(200);
      mined += 200;
    }
    const confirmed = await until(
      blocksOf,
      (rows) => rows.find((b) => b.id === block!.id)?.status === 'confirmed',
      120_000,
    );
    expect(confirmed.find((b) => b.id === block!.id)).toMatchObject({ status: 'confirmed' });
    const confirmedMs = performance.now() - found;

    const [run] = (await pool.pool.accounting?.runPayouts('KAS')) ?? [];
    expect(['sent', 'nothing-to-pay']).toContain(run?.status);
    const paid = await until(
      () => moneyOf(session.user.username),
      (m) => m.balance === 0n && m.payouts === 1,
    );
    expect(paid).toMatchObject({ balance: 0n, payouts: 1 });
    expect(paid.paid).toBeGreaterThanOrEqual(owed);
    await dev.mine(2);
    const arrived = await until(
      async () => {
        const balance = await outside.client.getBalance();
        return balance.available + balance.pending;
      },
      (sompi) => sompi === paid.paid,
    );
    expect(arrived).toBe(paid.paid);
    figures.push(
      `block at DAA ${block!.height}: subsidy ${kas(BigInt(block!.reward))} KAS, credited ${kas(owed)} KAS, confirmed after ${maturity} DAA (${mined} blocks mined) in ${(confirmedMs / 1000).toFixed(1)} s; paid ${kas(paid.paid)} KAS (run ${run?.status}); the outside wallet holds ${kas(arrived)} KAS`,
    );
  }, 400_000);
});
