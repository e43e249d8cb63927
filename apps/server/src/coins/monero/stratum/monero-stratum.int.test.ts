// The Monero Stratum dialect on a real regtest monerod (fixed difficulty): a test miner hashing
// with the project's RandomX addon logs in, gets jobs, has its shares judged as XMRig users see
// them, and finds a block monerod takes as its tip.
import { moneroBlockId, moneroDifficultyToTarget, moneroHashMeetsDifficulty } from '@manjam/protocol/monero';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MoneroDevChain } from '../devchain.js';
import type { RandomXPool } from '@manjam/randomx';
import type { MoneroTemplateSource } from './template-source.js';
import type {
  MoneroTestMiner,
  MoneroMinedShare,
} from '../../../../test/support/coins/monero/stratum/miner.js';
import {
  startStandalone,
  TEST_VARDIFF,
  type MemorySink,
  type StandalonePort,
} from '../../../../test/support/coins/monero/stratum/standalone.js';
import { selfSignedCertificate } from '../../../../test/support/self-signed.js';
import { MAX_UNKNOWN_METHODS } from '../../../stratum/framing.js';

const logger = pino({ level: 'warn' });
/** monerod --fixed-difficulty: a block every 5 hashes on average, most difficulty-1 shares are not blocks. */
const NETWORK_DIFFICULTY = 5n;
const SERVER_THREADS = 2;
const BAN_CHECK = 10;
const hex = (data: Uint8Array): string => Buffer.from(data).toString('hex');

const notBlock = (share: MoneroMinedShare): boolean =>
  !moneroHashMeetsDifficulty(share.hash, NETWORK_DIFFICULTY);

describe('the Monero Stratum dialect on a regtest monerod', () => {
  let standalone: StandalonePort;
  let chain: MoneroDevChain;
  let source: MoneroTemplateSource;
  let sink: MemorySink;
  let randomx: RandomXPool;
  let port = 0;
  const connect = (): Promise<MoneroTestMiner> => standalone.connect(port);
  let miner: MoneroTestMiner;
  let login = '';

  beforeAll(async () => {
    // Ban verdicts every 10 submits (default 100) so the test can show one.
    standalone = await startStandalone({
      logger,
      networkDifficulty: NETWORK_DIFFICULTY,
      initialBlocks: 1,
      serverThreads: SERVER_THREADS,
      banCheckAfterShares: BAN_CHECK,
    });
    ({ chain, source, sink, randomx } = standalone);
    ({ port } = await standalone.addServer());
    login = `${chain.poolAddress}.rig1`;
  });

  afterAll(async () => {
    await standalone?.stop();
  });

  it('logs a miner in with its address and worker and hands it a RandomX job', async () => {
    miner = await connect();
    const reply = await miner.login(login);
    expect(reply.error).toBeNull();
    const { block_header: tip } = await chain.daemon.call<{ block_header: { height: number; hash: string } }>(
      'get_last_block_header',
    );
    expect(reply.result).toMatchObject({ status: 'OK', job: { algo: 'rx/0', height: tip.height + 1 } });
    expect(miner.job?.target).toBe(moneroDifficultyToTarget(1n));
    expect(miner.job?.seed_hash).toMatch(/^[0-9a-f]{64}$/);

    // Each connection has its own extra nonce, so its own blob; a bad address is refused.
    const other = await connect();
    await other.login(chain.poolAddress);
    expect(other.job?.blob).not.toBe(miner.job?.blob);
    expect(other.job?.blob.length).toBe(miner.job?.blob.length);
    const stranger = await connect();
    const refused = await stranger.login('1BoatSLRHtKNngkdXEeobR76b53LETtpyT');
    expect(refused.error?.message).toMatch(/Invalid address/);

    const again = await miner.getjob();
    expect(again.result).toMatchObject({ algo: 'rx/0', height: tip.height + 1 });
    expect(await miner.request('keepalived', { id: miner.sessionId })).toMatchObject({
      result: { status: 'KEEPALIVED' },
    });
  });

  let honest: MoneroMinedShare;

  it('accepts an honest share and refuses it as a duplicate the second time', async () => {
    const height = (await chain.daemon.call<{ count: number }>('get_block_count')).count;
    honest = await miner.mine(notBlock);
    expect(await miner.submit(honest)).toMatchObject({ error: null, result: { status: 'OK' } });
    expect(sink.accepted).toHaveLength(1);
    expect(sink.accepted[0]).toMatchObject({ difficulty: 1, height, miner: { workerKey: `XMR:w:${login}` } });

    const duplicate = await miner.submit(honest);
    expect(duplicate.error?.message).toBe('Duplicate share');
    expect(sink.rejected.at(-1)?.reason).toBe('duplicate');
    // Not a block: the node's chain did not move.
    expect((await chain.daemon.call<{ count: number }>('get_block_count')).count).toBe(height);
  });

  it('serves XMRig over TLS on a port with a certificate: login, job and an accepted share; plain TCP gets no job', async () => {
    const secure = await standalone.addServer(undefined, selfSignedCertificate());
    expect(secure.server.tls).toBe(true);
    const tlsMiner = await standalone.connect(secure.port, { tls: true });
    const reply = await tlsMiner.login(`${chain.poolAddress}.tls`);
    expect(reply.result).toMatchObject({ status: 'OK', job: { algo: 'rx/0' } });
    const share = await tlsMiner.mine(notBlock);
    expect(await tlsMiner.submit(share)).toMatchObject({ error: null, result: { status: 'OK' } });
    expect(sink.accepted.at(-1)?.miner.workerKey).toBe(`XMR:w:${chain.poolAddress}.tls`);
    // A miner without TLS on that port: its login line is not a TLS handshake, it gets no answer.
    const plain = await standalone.connect(secure.port);
    const closed = new Promise<void>((resolve) => plain.onClose(resolve));
    void plain.login(chain.poolAddress);
    await closed;
    expect(plain.job).toBeUndefined();
  });

  it('refuses a share whose result is not the RandomX hash of its nonce', async () => {
    const share = await miner.mine(notBlock);
    // A claimed hash that would meet any difficulty: the pool hashes it itself.
    const forged = '00'.repeat(31) + 'ff';
    const reply = await miner.submit(share, { result: forged });
    expect(reply.error?.message).toBe('Invalid result');
    expect(sink.rejected.at(-1)?.reason).toBe('invalid');
  });

  it("stops a password's d= at the network difficulty", async () => {
    const asked = await connect();
    await asked.login(`${chain.poolAddress}.asked`, 'd=1000000');
    expect(asked.difficulty).toBe(NETWORK_DIFFICULTY);
  });

  it('refuses a share under the session difficulty', async () => {
    // A port whose minimum is far above the network's (the only way a share target is harder).
    const { port: hardPort } = await standalone.addServer({
      ...TEST_VARDIFF,
      start: 1_000_000,
      min: 1_000_000,
    });
    const high = await standalone.connect(hardPort);
    await high.login(`${chain.poolAddress}.big`);
    // The compact 4-byte target the miner gets reads back within 0.03 % of what was asked.
    expect(high.difficulty).toBeGreaterThanOrEqual(1_000_000n);
    expect(high.difficulty).toBeLessThan(1_000_300n);
    // Under the session difficulty and not a block.
    const share = await high.mine((s) => s.difficulty < high.difficulty && notBlock(s));
    const reply = await high.submit(share);
    expect(reply.error?.message).toBe('Low difficulty share');
    expect(sink.rejected.at(-1)).toMatchObject({ reason: 'low_difficulty', miner: { worker: 'big' } });
  });

  it('judges a burst of honest shares (figure: shares judged/s vs the raw RandomX rate)', async () => {
    const count = 12;
    const shares: MoneroMinedShare[] = [];
    for (let i = 0; i < count; i++) shares.push(await miner.mine(notBlock));
    const before = sink.accepted.length;
    let started = performance.now();
    const replies = await Promise.all(shares.map((share) => miner.submit(share)));
    const judgedPerSecond = count / ((performance.now() - started) / 1000);
    for (const reply of replies) expect(reply).toMatchObject({ error: null, result: { status: 'OK' } });
    expect(sink.accepted.length - before).toBe(count);

    // The same hashes straight on the pool's threads, before and after another judged burst
    // (the machine's load moves: the mean of two runs).
    const seed = source.current?.seedHash as Uint8Array;
    const raw = async (): Promise<number> => {
      const at = performance.now();
      await Promise.all(shares.map((share) => randomx.hash(seed, share.hashingBlob)));
      return count / ((performance.now() - at) / 1000);
    };
    const rawPerSecond = (await raw()) / 2;
    const more: MoneroMinedShare[] = [];
    for (let i = 0; i < count; i++) more.push(await miner.mine(notBlock));
    started = performance.now();
    const moreReplies = await Promise.all(more.map((share) => miner.submit(share)));
    const judgedAgain = count / ((performance.now() - started) / 1000);
    for (const reply of moreReplies) expect(reply).toMatchObject({ error: null, result: { status: 'OK' } });
    const rawMean = rawPerSecond + (await raw()) / 2;
    const judgedMean = (judgedPerSecond + judgedAgain) / 2;
    process.stdout.write(
      `[figure] XMR shares judged: ${judgedMean.toFixed(2)}/s vs raw addon ${rawMean.toFixed(2)} H/s ` +
        `(light mode, ${SERVER_THREADS} threads, 2 x ${count} shares): ${((100 * judgedMean) / rawMean).toFixed(0)} %\n`,
    );
  });

  it('finds a block monerod accepts as its tip, then answers old jobs as stale', async () => {
    const before = (await chain.daemon.call<{ count: number }>('get_block_count')).count;
    const share = await miner.mine((s) => moneroHashMeetsDifficulty(s.hash, NETWORK_DIFFICULTY));
    const recorded = sink.nextBlock();
    expect(await miner.submit(share)).toMatchObject({ error: null, result: { status: 'OK' } });
    const block = await recorded;
    const blockId = hex(moneroBlockId(share.hashingBlob));
    expect(block).toMatchObject({
      hash: blockId,
      height: before,
      status: 'pending',
      miner: { worker: 'rig1' },
    });
    expect(block.reward).toBeGreaterThan(0n);

    const { block_header: tip } = await chain.daemon.call<{ block_header: { height: number; hash: string } }>(
      'get_last_block_header',
    );
    expect(tip).toMatchObject({ hash: blockId, height: before });
    expect((await chain.daemon.call<{ count: number }>('get_block_count')).count).toBe(before + 1);

    // The miner is moved to the next height at once, and its old job is stale.
    const next = await miner.nextJob((job) => job.height === before + 1);
    expect(next.job_id).not.toBe(share.job.job_id);
    const late = await miner.submit(honest, { job_id: share.job.job_id });
    expect(late.error?.message).toBe('Stale job');
  });

  it("lands a block on monerod from a miner whose share difficulty sits far above the network's", async () => {
    const { port: hardPort } = await standalone.addServer({
      ...TEST_VARDIFF,
      start: 1_000_000,
      min: 1_000_000,
    });
    const high = await standalone.connect(hardPort);
    await high.login(`${chain.poolAddress}.between`);
    expect(high.difficulty).toBeGreaterThanOrEqual(1_000_000n);
    const before = (await chain.daemon.call<{ count: number }>('get_block_count')).count;
    // A block (it meets the network's 5) that misses the session's 1,000,000.
    const share = await high.mine((s) => !notBlock(s) && s.difficulty < high.difficulty);
    const accepted = sink.accepted.length;
    const recorded = sink.nextBlock();
    expect(await high.submit(share)).toMatchObject({ error: null, result: { status: 'OK' } });
    const block = await recorded;
    expect(block).toMatchObject({
      hash: hex(moneroBlockId(share.hashingBlob)),
      height: before,
      status: 'pending',
    });
    expect(sink.accepted.slice(accepted).map((s) => s.difficulty)).toEqual([Number(high.difficulty)]);
    expect((await chain.daemon.call<{ count: number }>('get_block_count')).count).toBe(before + 1);
  });

  it('answers unknown methods (V1 names, Object.prototype members) at once and closes a connection that keeps sending them', async () => {
    const flooder = await connect();
    const closed = new Promise<void>((resolve) => flooder.onClose(resolve));
    const methods = ['__proto__', 'constructor', 'toString', 'mining.subscribe'];
    const replies = await Promise.all(
      Array.from({ length: MAX_UNKNOWN_METHODS + 1 }, (_, i) =>
        flooder.request(methods[i % methods.length] ?? '', {}),
      ),
    );
    replies.forEach((reply, i) =>
      expect(reply.error?.message).toBe(`Unknown method ${methods[i % methods.length]}`),
    );
    await closed;
    const bystander = await connect();
    expect((await bystander.login(`${chain.poolAddress}.bystander`)).error).toBeNull();
    bystander.close();
  });

  it('cuts a connection whose shares are mostly invalid and refuses its login for a while', async () => {
    const bad = await connect();
    await bad.login(`${chain.poolAddress}.bad`);
    const share = await bad.mine(() => true);
    const closed = new Promise<void>((resolve) => bad.onClose(resolve));
    const replies = await Promise.all(
      Array.from({ length: BAN_CHECK }, () => bad.submit(share, { job_id: 'no-such-job' })),
    );
    for (const reply of replies) expect(reply.error?.message).toBe('Invalid job id');
    await closed;
    const again = await connect();
    const refused = await again.login(`${chain.poolAddress}.bad`);
    expect(refused.error?.message).toMatch(/too many invalid shares/);
    // Other workers of the same address keep mining.
    const good = await connect();
    expect((await good.login(`${chain.poolAddress}.good`)).error).toBeNull();
  });

  it('submits one block of two found on the same job and tells the miner "Stale job" for the other', async () => {
    const rig = await connect();
    expect((await rig.login(`${chain.poolAddress}.pair`)).error).toBeNull();
    const isBlock = (s: MoneroMinedShare) => moneroHashMeetsDifficulty(s.hash, NETWORK_DIFFICULTY);
    const first = await rig.mine(isBlock);
    const second = await rig.mine(isBlock, { job: first.job });
    expect(second.nonce).not.toBe(first.nonce);
    const before = (await chain.daemon.call<{ count: number }>('get_block_count')).count;
    const blocksBefore = sink.blocks.length;
    const recorded = sink.nextBlock();

    // Both leave at once and are hashed side by side (two RandomX threads).
    const replies = await Promise.all([rig.submit(first), rig.submit(second)]);

    const accepted = replies.findIndex((r) => r.error === null);
    expect(replies[accepted]).toMatchObject({ result: { status: 'OK' } });
    expect(replies[1 - accepted]?.error?.message).toBe('Stale job');
    const won = [first, second][accepted] as MoneroMinedShare;
    const winner = hex(moneroBlockId(won.hashingBlob));
    expect((await recorded).hash).toBe(winner);
    await rig.nextJob((job) => job.height === before + 1);
    expect((await chain.daemon.call<{ count: number }>('get_block_count')).count).toBe(before + 1);
    expect(sink.blocks.slice(blocksBefore).map((b) => b.hash)).toEqual([winner]);
    rig.close();
  });
});
