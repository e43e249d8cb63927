// XMR money end to end, through the pool as `npm start` composes it (startPool on the Monero
// regtest dev chain): a registered account whose XMR payout address belongs to an OUTSIDE wallet
// (its own monero-wallet-rpc, never the pool wallet) mines on the RandomX port; its block is
// recorded pending, confirmed by accounting 60 blocks later (coinbase maturity), its PPS+ credit
// is the template's expected reward less the fee, a payout run pays it from the pool wallet, and
// the outside wallet receives the debited amount to the atomic unit. A block taken off the chain
// (monerod's pop_blocks) is orphaned. Figures are printed.
import { coinbaseMaturityOf } from '@manjam/protocol';
import { RandomXPool } from '@manjam/randomx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerAndLogin, type Session } from '../../../../../../e2e/support/api.js';
import { startTestPool, type TestPool } from '../../../../../../e2e/support/pool.js';
import { feeBpsOf } from '../../../accounting/context.js';
import { MoneroAccountingChain } from '../wallet.js';
import { BalancesRepository } from '../../../db/repositories/balances.js';
import type { MoneroDevChain } from '../devchain.js';
import { MoneroTestMiner } from '../../../../test/support/coins/monero/stratum/miner.js';
import {
  startOutsideWallet,
  type OutsideWallet,
} from '../../../../test/support/coins/monero/stratum/outside-wallet.js';
import { isMoneroChain } from '../family.js';

let pool: TestPool;
let session: Session & { password: string };
let miner: MoneroTestMiner;
let outside: OutsideWallet;
let dev: MoneroDevChain;
let chain: MoneroAccountingChain;
let payeeId: number;
const randomx = new RandomXPool({ threads: 1 });
const figures: string[] = [];
const xmr = (units: bigint): string =>
  `${units / 10n ** 12n}.${(units % 10n ** 12n).toString().padStart(12, '0')}`;

/** Runs accounting cycles (beside the pool's own loop) until `read` satisfies `done`, or 60 s passed. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await pool.pool.accounting?.runOnce();
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** What the payee was paid (payouts not failed) and still holds. */
async function moneyOf(payee: number): Promise<{ paid: bigint; balance: bigint; payouts: number }> {
  const { rows } = await pool.pool.db.query<{ amount: string }>(
    "SELECT amount::text AS amount FROM payouts WHERE payee_id = $1 AND status <> 'failed'",
    [payee],
  );
  return {
    paid: rows.reduce((sum, r) => sum + BigInt(r.amount), 0n),
    balance: await new BalancesRepository(pool.pool.db).get(payee, 'XMR'),
    payouts: rows.length,
  };
}

type BlockRow = { id: number; height: number; hash: string; status: string; reward: string };
const blocksOf = async (): Promise<BlockRow[]> =>
  (
    await pool.pool.db.query<BlockRow>(
      "SELECT id, height, hash, status, reward::text AS reward FROM blocks WHERE coin = 'XMR' ORDER BY height",
    )
  ).rows;

/** Mines one share (a block at fixed difficulty 1); resolves with its height once the pool recorded it. */
async function mineBlock(): Promise<BlockRow> {
  const known = (await blocksOf()).length;
  // Work on the node's tip: after blocks mined by the dev chain, the pool's next template.
  const { count } = await dev.daemon.call<{ count: number }>('get_block_count');
  await until(
    async () => (await miner.getjob()).result as { height?: number } | undefined,
    (job) => job?.height === count,
  );
  const share = await miner.mine(() => true);
  expect(await miner.submit(share)).toMatchObject({ error: null, result: { status: 'OK' } });
  const rows = await until(blocksOf, (r) => r.length > known);
  const block = rows.at(-1);
  if (!block) throw new Error('the pool recorded no block');
  expect(block).toMatchObject({ height: count, status: 'pending' });
  return block;
}

beforeAll(async () => {
  pool = await startTestPool({ coins: ['XMR'] });
  const devchain = pool.pool.chains.find(isMoneroChain)?.runtime.devchain;
  if (!devchain) throw new Error('the pool runs no Monero dev chain');
  dev = devchain;
  chain = new MoneroAccountingChain(dev.daemon, dev.wallet);
  outside = await startOutsideWallet(dev.daemon.url);
  session = await registerAndLogin(pool.baseUrl, 'xmrpay');
  await api(pool.baseUrl, '/api/settings/payout-address', {
    method: 'PUT',
    token: session.token,
    body: { address: outside.address, coin: 'XMR', password: session.password },
  });
  miner = await MoneroTestMiner.connect(pool.randomxPort as number, randomx);
  expect((await miner.login(`${session.user.username}.cpu1`)).error).toBeNull();
}, 240_000);

afterAll(async () => {
  miner?.close();
  await outside?.stop();
  await pool?.stop();
  await randomx.close();
  process.stdout.write(`[XMR money through the pool]\n  ${figures.join('\n  ')}\n`);
});

describe('XMR money through the pool', () => {
  it('credits a found block at its expected reward less the fee, confirms it 60 blocks later and pays it to the outside wallet to the atomic unit', async () => {
    const block = await mineBlock();
    expect(block.status).toBe('pending');
    expect(await chain.holdsBlock(block.height, block.hash)).toBe(true);
    const { rows: payees } = await pool.pool.db.query<{ id: number }>(
      "SELECT p.id FROM payees p JOIN users u ON u.id = p.user_id WHERE p.coin = 'XMR' AND u.username = $1",
      [session.user.username],
    );
    payeeId = payees[0]?.id ?? 0;
    const { rows: rewards } = await pool.pool.db.query<{ reward: string }>(
      "SELECT reward::text AS reward FROM template_rewards WHERE coin = 'XMR' AND height = $1",
      [block.height],
    );
    // PPS+ at share difficulty 1 on network difficulty 1: the whole expected reward, less the
    // fee (XMR's found blocks carry no separate fee part to split: fees 0).
    const reward = BigInt(rewards[0]?.reward ?? '0');
    const gross = reward << 32n;
    const bps = feeBpsOf(pool.pool.config, 'XMR');
    const owed = (gross - (gross * BigInt(bps)) / 10_000n) >> 32n;
    // Credited as the shares are processed (and payable at once: the pool's loop may pay it
    // before the block matures).
    const credited = await until(
      () => moneyOf(payeeId),
      (m) => m.balance + m.paid === owed,
    );
    expect(credited.balance + credited.paid).toBe(owed);

    const maturity = coinbaseMaturityOf('XMR');
    expect(maturity).toBe(60);
    await dev.mine(maturity - 2);
    await pool.pool.accounting?.runOnce();
    expect((await blocksOf()).find((b) => b.id === block.id)?.status).toBe('pending');
    await dev.mine(1); // the 60th confirmation (the block itself is the first)
    const confirmed = await until(blocksOf, (r) => r.find((b) => b.id === block.id)?.status === 'confirmed');
    expect(confirmed.find((b) => b.id === block.id)).toMatchObject({ status: 'confirmed', hash: block.hash });

    const [run] = (await pool.pool.accounting?.runPayouts('XMR')) ?? [];
    expect(['sent', 'nothing-to-pay']).toContain(run?.status);
    // One payout of exactly the credit, whichever run paid it; the block split added nothing (fees 0).
    expect(await moneyOf(payeeId)).toEqual({ paid: owed, balance: 0n, payouts: 1 });
    const { rows: runs } = await pool.pool.db.query<{ txid: string }>(
      'SELECT r.txid FROM payouts p JOIN payout_runs r ON r.id = p.run_id WHERE p.payee_id = $1',
      [payeeId],
    );
    const txid = runs[0]?.txid;
    await dev.mine(10);
    expect(await outside.balance()).toBe(owed);
    const fee = (
      await dev.wallet.call<{ transfer: { fee: bigint } }>(
        'get_transfer_by_txid',
        { txid },
        { bigints: ['fee', 'amount'] },
      )
    ).transfer.fee;
    figures.push(
      `block ${block.height} (${block.hash.slice(0, 16)}…): expected reward ${xmr(reward)} XMR, fee ${bps} bps, credited ${xmr(owed)} XMR; confirmed after ${maturity} blocks; paid ${xmr(owed)} XMR (run ${run?.status}, tx ${txid?.slice(0, 16)}…, network fee ${xmr(fee)} XMR), the outside wallet holds ${xmr(await outside.balance())} XMR`,
    );
  }, 300_000);

  it('orphans a found block that monerod took off its chain, keeping its PPS credit', async () => {
    const before = await moneyOf(payeeId);
    const block = await mineBlock();
    const credited = await until(
      () => moneyOf(payeeId),
      (m) => m.balance + m.paid > before.balance + before.paid,
    );
    const popped = await fetch(`${dev.daemon.url}/pop_blocks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nblocks: 1 }),
    });
    expect(((await popped.json()) as { status: string }).status).toBe('OK');
    await dev.mine(2); // another block at its height, and one more
    expect(await chain.holdsBlock(block.height, block.hash)).toBe(false);
    const rows = await until(blocksOf, (r) => r.find((b) => b.id === block.id)?.status === 'orphaned');
    expect(rows.find((b) => b.id === block.id)?.status).toBe('orphaned');
    expect(await moneyOf(payeeId)).toEqual(credited);
    figures.push(
      `block ${block.height} popped by monerod (pop_blocks) and replaced: orphaned, its PPS credit kept (${xmr(credited.balance + credited.paid - before.balance - before.paid)} XMR)`,
    );
  }, 120_000);
});
