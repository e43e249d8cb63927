// Jobs of the XMR port on a real regtest monerod with the pool wallet's monero-wallet-rpc:
// - a transaction entering monerod's pool reaches a logged-in miner as a new job at the same
//   height whose template holds it (within chains.XMR.mempoolRefreshMs; at once with ZMQ), the
//   previous job of the height stays answerable, a block found on the new job holds the
//   transaction, and its fee part is what the richer template added (the REWARD RULE);
// - a new tip is heard over monerod's ZMQ at once; no new job when nothing changed;
// - nicehash-style nonce ranges: one connection submitting for several sub-miners (one top nonce
//   byte each) has every share accepted, a duplicate only for a repeated nonce, and its vardiff
//   follows their combined rate; every job is new work (its own blob).
// Figures are printed.
import { moneroHashMeetsDifficulty, moneroTargetToDifficulty } from '@manjam/protocol/monero';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hashingBlobTopNonceByte,
  hashingBlobTransactionCount,
  type MoneroClientJob,
  type MoneroLoginResult,
  type MoneroMinedShare,
} from '../../../../test/support/coins/monero/stratum/miner.js';
import { transferWhenNodeAnswers } from '../../../../test/support/coins/monero/transfer.js';
import { MoneroTemplateSource } from './template-source.js';
import {
  startStandalone,
  TEST_VARDIFF,
  type StandalonePort,
} from '../../../../test/support/coins/monero/stratum/standalone.js';

const logger = pino({ level: 'warn' });
const NETWORK_DIFFICULTY = 5n;
const MEMPOOL_REFRESH_MS = 3_000;
const ATOMIC = 10n ** 12n;
const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
const hex = (data: Uint8Array): string => Buffer.from(data).toString('hex');
const count = (job: MoneroClientJob): number => hashingBlobTransactionCount(bytes(job.blob));
const notBlock = (share: MoneroMinedShare): boolean =>
  !moneroHashMeetsDifficulty(share.hash, NETWORK_DIFFICULTY);
const isBlock = (share: MoneroMinedShare): boolean => !notBlock(share);
const figures: string[] = [];

let standalone: StandalonePort;
let port = 0;

beforeAll(async () => {
  // 100 blocks: the pool wallet has unlocked coins and decoys to transfer.
  standalone = await startStandalone({
    logger,
    networkDifficulty: NETWORK_DIFFICULTY,
    mempoolRefreshMs: MEMPOOL_REFRESH_MS,
  });
  ({ port } = await standalone.addServer());
}, 300_000);

afterAll(async () => {
  await standalone?.stop();
  if (figures.length > 0) process.stdout.write(`${figures.map((f) => `[figure] ${f}`).join('\n')}\n`);
});

describe('fresh transactions on the same tip', () => {
  it('hands the miner a new job at the same height holding a new pool transaction, keeps the old job valid, and mines it into a block', async () => {
    const { chain, source, sink } = standalone;
    const miner = await standalone.connect(port);
    expect((await miner.login(`${chain.poolAddress}.tx`)).error).toBeNull();
    const first = miner.job as MoneroClientJob;
    const firstTemplate = source.current;
    if (!firstTemplate) throw new Error('no template');
    expect(count(first)).toBe(1);

    // The pool wallet builds a transfer without relaying it; the test hands it to monerod, so the
    // clock starts when the transaction enters the node's pool.
    await chain.wallet.call('refresh');
    const { address } = await chain.wallet.call<{ address: string }>('create_address', { account_index: 0 });
    const built = Date.now();
    const transfer = await transferWhenNodeAnswers<{ tx_hash: string; tx_blob: string }>(chain.wallet, {
      destinations: [{ amount: Number(ATOMIC), address }],
      do_not_relay: true,
      get_tx_hex: true,
    });
    figures.push(`monero-wallet-rpc built the transfer in ${Date.now() - built} ms`);
    const sent = performance.now();
    const response = await fetch(`${chain.daemon.url}/send_raw_transaction`, {
      method: 'POST',
      body: JSON.stringify({ tx_as_hex: transfer.tx_blob, do_not_relay: false }),
    });
    expect(await response.json()).toMatchObject({ status: 'OK' });
    const fresh = await miner.nextJob((job) => job.height === first.height && count(job) === 2);
    const ms = performance.now() - sent;
    // monerod publishes txpool_add only for transactions relayed in the open (not one in its
    // Dandelion++ stem, as a transaction handed to an offline node is): the 1 s poll finds it.
    figures.push(
      `transaction in monerod's pool -> new job at the same height: ${ms.toFixed(0)} ms ` +
        `(mempoolRefreshMs ${MEMPOOL_REFRESH_MS}, found by the 1 s get_info poll)`,
    );
    // At most the refresh interval since the last fetch, plus one poll (1 s) and the RPCs (slack for a loaded machine).
    expect(ms).toBeLessThan(MEMPOOL_REFRESH_MS + 1_000 + 3_000);
    const template = source.current;
    expect(template?.height).toBe(firstTemplate.height);
    expect(template?.newTip).toBe(false);
    expect(template?.block.txHashes.map(hex)).toEqual([transfer.tx_hash]);
    expect(template?.reward).toBeGreaterThan(firstTemplate.reward);

    // The previous job of the height is still valid work.
    const old = await miner.mine(notBlock, { job: first });
    expect(await miner.submit(old)).toMatchObject({ error: null, result: { status: 'OK' } });

    // A block found on the new job holds the transaction.
    const share = await miner.mine(isBlock, { job: fresh });
    const recorded = sink.nextBlock();
    expect(await miner.submit(share)).toMatchObject({ error: null, result: { status: 'OK' } });
    const block = await recorded;
    expect(block).toMatchObject({ height: first.height, status: 'pending' });
    const mined = await chain.daemon.call<{ tx_hashes?: string[] }>('get_block', { hash: block.hash });
    expect(mined.tx_hashes).toEqual([transfer.tx_hash]);
    // REWARD RULE: PPS pays the height at its first template's reward; the block's fee part is
    // what the richer template added.
    expect(block.reward).toBe(template?.reward);
    expect(block.subsidy).toBe(firstTemplate.reward);
    expect(block.fees).toBe(block.reward - firstTemplate.reward);
    figures.push(
      `height ${block.height}: first template ${firstTemplate.reward} atomic units, with the ` +
        `transaction ${block.reward} (fee part ${block.fees})`,
    );
    miner.close();
  }, 300_000);

  it('hears a new tip over ZMQ at once, and sends no new job when nothing changed', async () => {
    const { chain, source } = standalone;
    const miner = await standalone.connect(port);
    await miner.login(`${chain.poolAddress}.idle`);
    const height = (miner.job as MoneroClientJob).height;
    // A second source that polls once a minute: a template within seconds came over ZMQ.
    const slow = new MoneroTemplateSource({
      daemon: chain.daemon,
      address: chain.poolAddress,
      logger,
      pollMs: 60_000,
      mempoolRefreshMs: MEMPOOL_REFRESH_MS,
      zmqPubUrl: chain.zmqPubUrl,
    });
    await slow.start();
    // /api/health's word for it: until monerod's first message, only the poll.
    expect(slow.newTipsBy).toBe('poll');
    try {
      const heard = new Promise<number>((resolve) =>
        slow.onTemplate((template) => {
          if (template.height === height + 1) resolve(performance.now());
        }),
      );
      const asked = performance.now();
      await chain.mine(1);
      const answered = performance.now();
      const at = await heard;
      expect(at - asked).toBeLessThan(30_000);
      expect(slow.newTipsBy).toBe('zmq');
      figures.push(
        `generateblocks (${(answered - asked).toFixed(0)} ms) -> template on the new tip over ZMQ ` +
          `${(at - answered).toFixed(0)} ms after monerod answered (that source polls every 60 s)`,
      );
    } finally {
      await slow.stop();
    }
    const next = await miner.nextJob((job) => job.height === height + 1);
    const seq = source.current?.seq;
    // Two refresh intervals with an unchanged pool: no template, no job.
    await new Promise((resolve) => setTimeout(resolve, 2 * MEMPOOL_REFRESH_MS));
    expect(source.current?.seq).toBe(seq);
    expect(miner.notifications.filter((job) => job.height === next.height)).toHaveLength(1);
    miner.close();
  }, 120_000);
});

describe('nicehash-style nonce ranges', () => {
  it('accepts shares of several sub-miners on one connection, refuses only a repeated nonce, and raises the difficulty for their combined rate', async () => {
    const { chain, sink } = standalone;
    // Retargets after 1 s so that the test sees one; at most 64 so shares stay quick to find.
    const fast = await standalone.addServer({
      ...TEST_VARDIFF,
      targetSeconds: 10,
      retargetSeconds: 1,
      max: 64,
    });
    const proxy = await standalone.connect(fast.port);
    const reply = await proxy.login(`${chain.poolAddress}.proxy`);
    const result = reply.result as MoneroLoginResult;
    // The whole nonce is the miner's: the blob's nonce is zero (XMRig stays out of nicehash mode)
    // and the pool does not announce "nicehash" (that would cut XMRig to 2^24 nonces per job).
    expect(result.extensions).not.toContain('nicehash');
    expect(hashingBlobTopNonceByte(bytes(result.job.blob))).toBe(0);
    // Every job is new work: two getjobs on one template, two blobs.
    const a = (await proxy.getjob()).result as MoneroClientJob;
    const b = (await proxy.getjob()).result as MoneroClientJob;
    expect(a.blob).not.toBe(b.blob);
    expect(a.blob.length).toBe(b.blob.length);

    const job = b;
    const subMiners = [0x00, 0x01, 0x7f, 0xff];
    const accepted = sink.accepted.length;
    let low = 0;
    let rounds = 0;
    let submitted = 0;
    const started = performance.now();
    /** One share per sub-miner with the same low 24 bits (only the top byte differs), none a block. */
    const round = async (on: MoneroClientJob): Promise<MoneroMinedShare[]> => {
      for (;;) {
        const shares = await Promise.all(subMiners.map((top) => proxy.hash(on, ((top << 24) | low) >>> 0)));
        low++;
        if (shares.every(notBlock)) return shares;
      }
    };
    let retargeted: MoneroClientJob | undefined;
    while (!retargeted && rounds < 40) {
      const shares = await round(job);
      const replies = await Promise.all(shares.map((share) => proxy.submit(share)));
      for (const r of replies) expect(r).toMatchObject({ error: null, result: { status: 'OK' } });
      submitted += shares.length;
      rounds++;
      retargeted = proxy.notifications.find((j) => moneroTargetToDifficulty(j.target) > 1n);
    }
    const seconds = (performance.now() - started) / 1000;
    expect(sink.accepted.length - accepted).toBe(submitted);
    // Duplicates: only the very same nonce again.
    const again = await round(job);
    expect(await proxy.submit(again[2] as MoneroMinedShare)).toMatchObject({ result: { status: 'OK' } });
    expect((await proxy.submit(again[2] as MoneroMinedShare)).error?.message).toBe('Duplicate share');

    if (!retargeted) throw new Error(`no retarget after ${rounds} rounds`);
    const difficulty = moneroTargetToDifficulty(retargeted.target);
    figures.push(
      `nicehash proxy, ${subMiners.length} sub-miners: ${submitted} shares in ${seconds.toFixed(1)} s ` +
        `(${(submitted / seconds).toFixed(1)}/s) all accepted; vardiff 1 -> ${difficulty}`,
    );
    expect(retargeted.blob).not.toBe(job.blob);
    expect(hashingBlobTopNonceByte(bytes(retargeted.blob))).toBe(0);
    // Shares still in flight on the previous job are answered at its difficulty...
    const late = await round(job);
    for (const r of await Promise.all(late.map((share) => proxy.submit(share))))
      expect(r).toMatchObject({ error: null, result: { status: 'OK' } });
    // ...and the new job asks for the new difficulty from every sub-miner.
    const weak = await proxy.mine((s) => s.difficulty < difficulty, { job: retargeted, topByte: 0x7f });
    expect((await proxy.submit(weak)).error?.message).toBe('Low difficulty share');
    const strong = await proxy.mine((s) => s.difficulty >= difficulty, {
      job: retargeted,
      topByte: 0xff,
      maxNonces: 100_000,
    });
    expect(await proxy.submit(strong)).toMatchObject({ error: null, result: { status: 'OK' } });
  }, 300_000);
});
