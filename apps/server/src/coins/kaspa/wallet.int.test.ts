import { rmSync } from 'node:fs';
import pino from 'pino';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureKaspad } from '../../../../../scripts/kaspad.mjs';
import { isInsufficientFunds } from '../../accounting/chain.js';
import { paysOutputs } from '../../accounting/payout-plan.js';
import { RpcError } from '../../rpc/json-rpc.js';
import type { RunningWallet } from './dev-processes.js';
import { KAS_DEV_FEE_RATE, startKaspaDevChain, type KaspaDevChain } from './devchain.js';
import { KaspaAccountingChain, KASPA_UNMERGED_GRACE_DAA, type KaspaAccountingOptions } from './wallet.js';
import { fundedKaspaDataDir } from '../../../test/support/coins/kaspa/funded-snapshot.js';

const logger = pino({ level: 'warn' });
const figures: string[] = [];
const figure = (name: string, value: number, unit = 'ms'): void => {
  const line = `KAS ${name}: ${Math.round(value)} ${unit}`;
  figures.push(line);
  process.stdout.write(`[figure] ${line}\n`);
};

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await delay(250);
  }
}

describe('KAS accounting over kaspad and the kaspawallet daemon (simnet dev chain)', () => {
  let dev: KaspaDevChain;
  let dataDir: string | undefined;
  let outside: RunningWallet;
  let chain: KaspaAccountingChain;
  let options: KaspaAccountingOptions;

  /** The DAG's tips now (a block just mined or submitted, nothing on top of it yet, is one). */
  const tips = async (): Promise<Set<string>> => new Set((await dev.node.getBlockDagInfo()).tipHashes);

  /** kaspaminer mines one block to the pool address; resolves with its hash (a new tip). */
  async function mineOne(): Promise<string> {
    const before = await tips();
    await dev.mine(1);
    const added = [...(await tips())].filter((hash) => !before.has(hash));
    expect(added).toHaveLength(1);
    return added[0]!;
  }

  beforeAll(async () => {
    const installed = await ensureKaspad({ quiet: true });
    // No Go, no kaspad: the test fails with the installer's words, it is never skipped.
    if (!installed.ok) throw new Error(installed.reason);
    // A copy of the run's funded chain (test/support/coins/kaspa/funded-snapshot.ts), else funded here.
    dataDir = fundedKaspaDataDir();
    dev = await startKaspaDevChain({ binaries: installed.binaries, logger, ...(dataDir ? { dataDir } : {}) });
    outside = await dev.startWallet('outside');
    options = { password: dev.walletPassword, feePolicy: { exactFeeRate: KAS_DEV_FEE_RATE } };
    chain = new KaspaAccountingChain(dev.node, dev.wallet, options);
  }, 400_000);
  afterAll(async () => {
    await dev?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    process.stdout.write(`[KAS accounting]\n  ${figures.join('\n  ')}\n`);
  });

  it('holds a block mined to the pool address once a chain block merged it as blue, pending a moment before, and never a made-up hash', async () => {
    const hash = await mineOne();
    const found = performance.now();
    // The sink: no chain block merged it yet. Held (pending) within the grace, an orphan past it;
    // height 0 below is far past the grace, so only a blue merge holds it there.
    const daaScore = Number((await dev.node.getBlock(hash, false)).header?.daaScore);
    expect(await chain.holdsBlock(daaScore, hash)).toBe(true);
    expect(await chain.holdsBlock(daaScore - KASPA_UNMERGED_GRACE_DAA, hash)).toBe(false);
    expect(await chain.holdsBlock(0, hash)).toBe(false);
    let mined = 0;
    await until('the block held', 60_000, async () => {
      if (await chain.holdsBlock(0, hash)) return true;
      await dev.mine(1);
      mined++;
      return undefined;
    });
    figure('block found -> held (merged blue)', performance.now() - found);
    figure('blocks mined on top until held', mined, 'blocks');
    expect(mined).toBeGreaterThanOrEqual(1);
    expect(await chain.holdsBlock(0, 'ab'.repeat(32))).toBe(false);
  });

  // A red block on the real node is not drilled here: making kaspaminer merge a late block as red
  // within a test's time proved unreliable (the premise failed in 2 of 4 runs on a loaded
  // machine); dag-reader.test.ts holds the red case on a hand-written DAG.

  it('counts the tip as the virtual DAA score, which rises as blocks are mined', async () => {
    const tip = await chain.getBlockCount();
    expect(BigInt(tip)).toBe(BigInt((await dev.node.getBlockDagInfo()).virtualDaaScore));
    await dev.mine(2);
    expect(await chain.getBlockCount()).toBeGreaterThanOrEqual(tip + 2);
  });

  it("answers the wallet's available balance, positive", async () => {
    const balance = await chain.getWalletBalance();
    expect(balance).toBeGreaterThan(0n);
    expect(balance).toBe((await dev.wallet.getBalance()).available);
  });

  it('pays an address of another wallet, which kaspad then counts; the txid confirms and reconcile finds it by its outputs', async () => {
    const payee = await outside.client.newAddress();
    const amount = 2_345_678_901n;
    const since = Math.floor(Date.now() / 1000);
    const started = performance.now();
    const txid = await chain.sendMany(new Map([[payee, amount]]), 'run 1');
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    const pooled = await chain.getWalletTransaction(txid);
    const arrived = await until('the payment at the payee', 60_000, async () => {
      const balance = await dev.node.getBalanceByAddress(payee);
      if (balance > 0n) return balance;
      await dev.mine(1); // kaspad puts a mempool transaction into a later template
      return undefined;
    });
    figure('sendMany -> at the payee address (GetBalanceByAddress)', performance.now() - started);
    expect(arrived).toBe(amount);
    if (pooled) expect(pooled.confirmations).toBeGreaterThanOrEqual(0);
    const sent = await chain.getWalletTransaction(txid);
    expect(sent).toMatchObject({ txid, comment: 'run 1' });
    expect(sent!.confirmations).toBeGreaterThanOrEqual(1);
    expect(sent!.outputs).toEqual([{ address: payee, amount }]);
    // A restarted pool (no memory of the send) finds it by a scan, and by its outputs.
    const restarted = new KaspaAccountingChain(dev.node, dev.wallet, options);
    const scanned = performance.now();
    expect((await restarted.getWalletTransaction(txid))?.confirmations).toBeGreaterThanOrEqual(1);
    figure('txid found by a scan after a restart', performance.now() - scanned);
    const candidates = await restarted.findWalletTransactions(since - 600);
    const match = candidates.find((tx) => paysOutputs(new Map([[payee, amount]]), tx.outputs));
    expect(match?.txid).toBe(txid);
    expect(match?.outputs).toContainEqual({ address: payee, amount });
    expect(await restarted.getWalletTransaction('cd'.repeat(32))).toBeUndefined();
  });

  it('refuses a payment above the balance as a node rejection that accounting reads as insufficient funds', async () => {
    const balance = await chain.getWalletBalance();
    const refusal = await chain
      .sendMany(new Map([[outside.address, balance + 100_000_000_000n]]), 'run 2')
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RpcError);
    expect((refusal as RpcError).kind).toBe('rpc');
    expect(isInsufficientFunds(refusal)).toBe(true);
    const twoPayees = await chain
      .sendMany(
        new Map([
          [outside.address, 1n],
          [dev.poolAddress, 1n],
        ]),
        'run 3',
      )
      .catch((error: unknown) => error);
    expect([twoPayees instanceof RpcError, isInsufficientFunds(twoPayees)]).toEqual([true, false]);
  });
});
