import { RandomXPool } from '@manjam/randomx';
import {
  moneroBlockId,
  moneroHashingBlob,
  moneroHashMeetsDifficulty,
  parseMoneroBlock,
  withMoneroNonce,
  writeMoneroExtraNonce,
} from '@manjam/protocol/monero';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startMoneroDevChain,
  XMR_COINBASE_MATURITY,
  XMR_INITIAL_BLOCKS,
  type MoneroDevChain,
} from './devchain.js';

const logger = pino({ level: 'warn' });
const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
const hex = (data: Uint8Array): string => Buffer.from(data).toString('hex');

interface BlockTemplate {
  blocktemplate_blob: string;
  blockhashing_blob: string;
  difficulty: number;
  height: number;
  reserved_offset: number;
  seed_hash: string;
  prev_hash: string;
}

interface BlockHeader {
  hash: string;
  height: number;
}

const RESERVE_SIZE = 8;

describe('the XMR regtest dev chain (monerod + monero-wallet-rpc)', () => {
  let chain: MoneroDevChain;
  let startMs = 0;
  const randomx = new RandomXPool({ threads: 1 });

  beforeAll(async () => {
    const started = performance.now();
    chain = await startMoneroDevChain({ logger });
    startMs = performance.now() - started;
  });
  afterAll(async () => {
    await randomx.close();
    await chain?.stop();
  });

  it('starts with a funded pool wallet whose coinbase coins have unlocked', async () => {
    // Figure for the report: monerod + wallet-rpc up, wallet created, 100 blocks mined.
    process.stdout.write(`[figure] XMR dev chain ready in ${Math.round(startMs)} ms\n`);
    const { count } = await chain.daemon.call<{ count: number }>('get_block_count');
    expect(count).toBeGreaterThanOrEqual(XMR_INITIAL_BLOCKS);
    await chain.wallet.call('refresh');
    const balance = await chain.wallet.call<{ balance: number; unlocked_balance: number }>('get_balance', {
      account_index: 0,
    });
    expect(balance.unlocked_balance).toBeGreaterThan(0);
    // Coinbases younger than the maturity window are not spendable yet.
    expect(balance.balance).toBeGreaterThan(balance.unlocked_balance);
    expect(XMR_INITIAL_BLOCKS).toBeGreaterThan(XMR_COINBASE_MATURITY);
  });

  it('builds the hashing blob monerod builds, hashes it as monerod does, and gets its block accepted', async () => {
    const template = await chain.daemon.call<BlockTemplate>('get_block_template', {
      wallet_address: chain.poolAddress,
      reserve_size: RESERVE_SIZE,
    });
    const blob = bytes(template.blocktemplate_blob);
    // Unmodified template: our hashing blob is monerod's.
    expect(hex(moneroHashingBlob(blob))).toBe(template.blockhashing_blob);

    // A per-connection extra nonce in the reserved bytes changes the miner transaction.
    const withExtra = writeMoneroExtraNonce(
      blob,
      template.reserved_offset,
      RESERVE_SIZE,
      bytes('6d616e6a616d0001'),
    );
    const block = parseMoneroBlock(withExtra);
    const hashingBlob = moneroHashingBlob(withExtra, block);
    expect(hex(hashingBlob)).not.toBe(template.blockhashing_blob);

    const seed = bytes(template.seed_hash);
    const difficulty = BigInt(template.difficulty);
    let nonce = 0;
    let candidate = withMoneroNonce(hashingBlob, block.header.nonceOffset, nonce);
    let pow = await randomx.hash(seed, candidate);
    while (!moneroHashMeetsDifficulty(pow, difficulty)) {
      nonce++;
      candidate = withMoneroNonce(hashingBlob, block.header.nonceOffset, nonce);
      pow = await randomx.hash(seed, candidate);
    }

    // monerod's own RandomX hash of our blob.
    const calcPow = await chain.daemon.call<string>('calc_pow', {
      major_version: block.header.majorVersion,
      height: template.height,
      block_blob: hex(candidate),
      seed_hash: template.seed_hash,
    });
    expect(hex(pow)).toBe(calcPow);

    const submitted = withMoneroNonce(withExtra, block.header.nonceOffset, nonce);
    const result = await chain.daemon.call<{ status: string }>('submit_block', [hex(submitted)]);
    expect(result.status).toBe('OK');

    const { block_header: tip } = await chain.daemon.call<{ block_header: BlockHeader }>(
      'get_last_block_header',
    );
    expect(tip.height).toBe(template.height);
    expect(tip.hash).toBe(hex(moneroBlockId(candidate)));
    const { count } = await chain.daemon.call<{ count: number }>('get_block_count');
    expect(count).toBe(template.height + 1);
  });

  it('brings monerod back on the same chain after kill -9', async () => {
    const { count } = await chain.daemon.call<{ count: number }>('get_block_count');
    const [monerod] = chain.nodeProcessIds();
    process.kill(monerod as number, 'SIGKILL');
    const deadline = Date.now() + 120_000;
    let after: number | undefined;
    while (after === undefined) {
      try {
        const answer = await chain.daemon.call<{ count: number }>(
          'get_block_count',
          {},
          { timeoutMs: 1_000 },
        );
        if (chain.nodeProcessIds()[0] !== monerod) after = answer.count;
      } catch (err) {
        if (Date.now() > deadline) throw err;
      }
      await delay(100);
    }
    expect(after).toBe(count);
    expect(await chain.mine(1)).toHaveLength(1);
  });

  it('stops both processes and removes its data', async () => {
    const pids = chain.processIds();
    expect(pids.length).toBe(4);
    const dataDirs = chain.nodeProcessIds().flatMap((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .filter((arg) => arg.startsWith('--data-dir='))
        .map((arg) => path.dirname(arg.slice('--data-dir='.length))),
    );
    expect(dataDirs).toHaveLength(1);
    await chain.stop();
    for (const pid of pids) expect(existsSync(`/proc/${pid}`)).toBe(false);
    expect(existsSync(dataDirs[0] as string)).toBe(false);
  });
});
