import pino from 'pino';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureKaspad } from '../../../../../scripts/kaspad.mjs';
import type { RunningWallet } from './dev-processes.js';
import { KAS_DEV_FEE_RATE, startKaspaDevChain, type KaspaDevChain } from './devchain.js';
import type { RpcBlock } from './kaspad-wire.js';

const logger = pino({ level: 'warn' });
const figures: Record<string, number> = {};
const figure = (name: string, ms: number): void => {
  figures[name] = Math.round(ms);
  process.stdout.write(`[figure] KAS ${name}: ${Math.round(ms)} ms\n`);
};

// Test-side reading of a kaspasim: P2PK address into its script (0x20 <32-byte key> 0xac), to
// see whom a coinbase pays. Checksums are the address validator's job, not this test's.
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
function p2pkScriptOf(address: string): string {
  const data = [...address.slice(address.indexOf(':') + 1, -8)].map((c) => CHARSET.indexOf(c));
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const value of data) {
    acc = (acc << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  expect(bytes[0]).toBe(0); // version 0: a Schnorr public key
  return `20${Buffer.from(bytes.slice(1, 33)).toString('hex')}ac`;
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await delay(250);
  }
}

/** Submits the template with nonces 0, 1, ...: on simnet about every second hash meets the target. */
async function submitSolved(chain: KaspaDevChain, block: RpcBlock): Promise<number> {
  for (let nonce = 0; nonce < 64; nonce++) {
    const result = await chain.node.submitBlock({
      ...block,
      header: { ...block.header!, nonce: String(nonce) },
    });
    if (result.accepted) return nonce;
    expect(result.message).toMatch(/proof of work/i);
  }
  throw new Error('no nonce out of 64 met the simnet target');
}

describe('the KAS dev chain (kaspad simnet + kaspawallet daemon + kaspaminer)', () => {
  let chain: KaspaDevChain;
  let outside: RunningWallet;

  beforeAll(async () => {
    let started = performance.now();
    const installed = await ensureKaspad({ quiet: true });
    // No Go, no kaspad: the test fails with the installer's words, it is never skipped.
    if (!installed.ok) throw new Error(installed.reason);
    figure(installed.built ? 'install (built now)' : 'install (already built)', performance.now() - started);
    started = performance.now();
    chain = await startKaspaDevChain({ binaries: installed.binaries, logger });
    figure('dev chain start incl. funding', performance.now() - started);
    figure('pool wallet funding', chain.fundingMs);
    outside = await chain.startWallet('outside');
  }, 400_000);
  afterAll(async () => {
    await chain?.stop();
    process.stdout.write(`[figures] ${JSON.stringify(figures)}\n`);
  });

  it('answers GetBlockDagInfo and GetInfo over gRPC on simnet with the UTXO index on', async () => {
    const dag = await chain.node.getBlockDagInfo();
    expect(dag.networkName).toBe('kaspa-simnet');
    expect(BigInt(dag.virtualDaaScore)).toBeGreaterThan(1000n);
    expect(dag.tipHashes.length).toBeGreaterThan(0);
    const info = await chain.node.getInfo();
    expect(info.serverVersion).toBe('0.12.22');
    expect(info.isUtxoIndexed).toBe(true);
  });

  it('funds the pool wallet with mature coinbase coins that kaspad counts at its address', async () => {
    const balance = await chain.wallet.getBalance();
    expect(balance.available).toBeGreaterThan(0n);
    const atNode = await chain.node.getBalanceByAddress(chain.poolAddress);
    expect(atNode).toBe(balance.available + balance.pending);
  });

  it('builds a template whose coinbase pays the given address, and that address is paid once the block is merged', async () => {
    const payee = await outside.client.newAddress();
    const started = performance.now();
    const { block } = await chain.node.getBlockTemplate(payee, 'manjam-test');
    figure('GetBlockTemplate', performance.now() - started);
    const coinbase = block.transactions[0]!;
    expect(coinbase.payload).toContain(p2pkScriptOf(payee));
    expect(Buffer.from(coinbase.payload, 'hex').toString('latin1')).toContain('0.12.22/manjam-test');
    expect(await chain.node.getBalanceByAddress(payee)).toBe(0n);
    await submitSolved(chain, block);
    await chain.mine(3); // blocks that merge ours pay its reward
    const paid = await until('coinbase reward at the payee', 30_000, async () => {
      const balance = await chain.node.getBalanceByAddress(payee);
      return balance > 0n ? balance : undefined;
    });
    expect(paid).toBeGreaterThan(0n);
  });

  it('sends a NewBlockTemplate notification when kaspaminer mines a block', async () => {
    let notifiedAt = 0;
    const notified = new Promise<void>((resolve) => {
      void chain.node
        .onNewBlockTemplate(() => {
          notifiedAt ||= performance.now();
          resolve();
        })
        .then((unsubscribe) => notified.finally(unsubscribe));
    });
    await delay(200); // the subscription is in place
    const started = performance.now();
    const before = BigInt((await chain.node.getBlockDagInfo()).blockCount);
    await chain.mine(2);
    await notified;
    figure('block mined -> NewBlockTemplate', notifiedAt - started);
    expect(BigInt((await chain.node.getBlockDagInfo()).blockCount)).toBeGreaterThanOrEqual(before + 2n);
  });

  it('refuses a garbage block with a reject reason, and keeps serving', async () => {
    const { block } = await chain.node.getBlockTemplate(chain.poolAddress, 'manjam-test');
    const badRoot = await chain.node.submitBlock({
      ...block,
      header: { ...block.header!, hashMerkleRoot: '00'.repeat(32) },
    });
    expect(badRoot).toMatchObject({ accepted: false, rejectReason: 'BLOCK_INVALID' });
    expect(badRoot.message).toMatch(/^Block rejected/);
    const unparsable = await chain.node.submitBlock({
      ...block,
      header: { ...block.header!, hashMerkleRoot: 'zz' },
    });
    expect(unparsable).toMatchObject({ accepted: false, rejectReason: 'BLOCK_INVALID' });
    expect(unparsable.message).toMatch(/Could not parse block/);
    expect((await chain.node.getInfo()).serverVersion).toBe('0.12.22');
  });

  it("pays an outside wallet's address through the pool wallet daemon's Send, and its balance shows the coins", async () => {
    const amount = 1_234_500_000n; // 12.345 KAS
    const started = performance.now();
    const txIds = await chain.wallet.send({
      toAddress: outside.address,
      amount,
      password: chain.walletPassword,
      feePolicy: { exactFeeRate: KAS_DEV_FEE_RATE },
    });
    expect(txIds.length).toBeGreaterThan(0);
    const available = await until('the payment in the outside wallet', 60_000, async () => {
      // Each round mines a block: kaspad puts a new mempool transaction into a later template.
      await chain.mine(1);
      const balance = await outside.client.getBalance();
      return balance.available > 0n ? balance.available : undefined;
    });
    figure('Send -> visible in the payee wallet', performance.now() - started);
    expect(available).toBe(amount);
    expect(await chain.node.getBalanceByAddress(outside.address)).toBe(amount);
  });
});
