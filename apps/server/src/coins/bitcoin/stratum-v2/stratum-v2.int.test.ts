import { readFile, stat } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { schnorr } from '@noble/curves/secp256k1.js';
import { bitsToTarget, difficultyToTarget } from '@manjam/protocol';
import { decodeAuthoritySecretKey, encodeAuthorityPublicKey } from '@manjam/protocol/sv2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DevChain } from '../devchain/index.js';
import { startBtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { PayeesRepository } from '../../../db/repositories/payees.js';
import { SharesRepository } from '../../../db/repositories/shares.js';
import { WorkersRepository } from '../../../db/repositories/workers.js';
import {
  startPoolOnChain,
  testLogger,
  type PoolOnChain,
} from '../../../../test/support/coins/bitcoin/stratum/harness.js';
import { v2Figures } from '../../../../test/support/coins/bitcoin/stratum-v2/figures.js';
import { AUTHORITY_KEY_FILE } from './authority.js';
import {
  findNonce,
  Sv2HandshakeRefused,
  Sv2TestClient,
  type ChannelWork,
} from '../../../../test/support/coins/bitcoin/stratum-v2/client.js';
import { targetToU256, u256ToTarget } from './work.js';

// Regtest's network target accepts about every other hash; at this share difficulty the share
// target is ~1.5x the network target, so a share that is not a block is picked on purpose.
const LOW_DIFFICULTY = 3e-10;

describe('Stratum V2 on bcoin regtest (SHA-256d)', () => {
  let chain: DevChain;
  let pool: PoolOnChain;
  let authority: Uint8Array;
  const clients: Sv2TestClient[] = [];
  const v2Port = (): number => pool.ports[1] as number;
  const hardPort = (): number => pool.ports[2] as number;

  const miner = async (port = v2Port()): Promise<Sv2TestClient> => {
    const client = await Sv2TestClient.connect(port, authority);
    clients.push(client);
    expect((await client.setup()).type).toBe('SetupConnectionSuccess');
    return client;
  };
  const extended = async (client: Sv2TestClient, login: string) => {
    const opened = await client.open('extended', login);
    if (!opened.ok) throw new Error(`open refused: ${opened.errorCode}`);
    return { ...opened, firstWork: await opened.work };
  };
  const networkTarget = (work: ChannelWork): bigint =>
    bitsToTarget(work.prevHash.nbits.toString(16).padStart(8, '0'));

  beforeAll(async () => {
    chain = await startBtcTestChain({ logger: testLogger });
    pool = await startPoolOnChain({
      coin: 'BTC',
      chain,
      ports: [
        { start: LOW_DIFFICULTY },
        { start: LOW_DIFFICULTY, protocol: 'v2' },
        { start: 1e6, min: 1e6, protocol: 'v2' },
      ],
      stratum: { v2: { handshakeTimeoutSeconds: 1 }, maxConnectionsPerIp: 60 },
    });
    const secret = decodeAuthoritySecretKey(await readFile(join(pool.dataDir, AUTHORITY_KEY_FILE), 'utf8'));
    authority = schnorr.getPublicKey(secret as Uint8Array);
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await pool?.close();
    await chain?.stop();
  });

  it('generates the authority key under dataDir, readable by its owner only', async () => {
    expect((await stat(join(pool.dataDir, AUTHORITY_KEY_FILE))).mode & 0o777).toBe(0o600);
  });

  it('lists its V2 ports with their protocol and the authority key, its V1 port as V1', () => {
    const key = encodeAuthorityPublicKey(authority);
    expect(
      pool.stratum.ports().map((p) => ({ port: p.port, protocol: p.protocol, key: p.authorityKey })),
    ).toEqual([
      { port: pool.ports[0], protocol: 'v1', key: undefined },
      { port: v2Port(), protocol: 'v2', key },
      { port: hardPort(), protocol: 'v2', key },
    ]);
  });

  it('accepts extended-channel shares after the handshake and stores them for the worker', async () => {
    const client = await miner();
    const channel = await extended(client, `${chain.poolAddress}.v2ext`);
    expect(channel.extranoncePrefix.length).toBe(4);
    const work = channel.firstWork;
    const shareTarget = u256ToTarget(channel.target);
    const extranonce = Buffer.alloc(channel.extranonceSize, 7);
    const parts = { extranoncePrefix: channel.extranoncePrefix, extranonce };
    let nonce = 0;
    for (let seq = 1; seq <= 3; seq++) {
      const found = findNonce(work, parts, (h) => h <= shareTarget && h > networkTarget(work), nonce);
      nonce = found.nonce + 1;
      const answer = client.next('SubmitSharesSuccess', (m) => m.lastSequenceNumber === seq);
      client.send({
        type: 'SubmitSharesExtended',
        channelId: channel.channelId,
        sequenceNumber: seq,
        jobId: work.job.jobId,
        nonce: found.nonce,
        ntime: found.ntime,
        version: found.version,
        extranonce,
      });
      expect(await answer).toMatchObject({ channelId: channel.channelId, newSubmitsAcceptedCount: 1 });
    }
    const payeeId = await new PayeesRepository(pool.db).ensureWallet('BTC', chain.poolAddress);
    const shares = new SharesRepository(pool.db);
    let stored = 0;
    for (let i = 0; i < 100 && stored < 3; i++) {
      const worker = (await new WorkersRepository(pool.db).listByPayee(payeeId)).find(
        (w) => w.name === 'v2ext',
      );
      stored = worker ? await shares.countForWorker(worker.id) : 0;
      if (stored < 3) await new Promise((r) => setTimeout(r, 100));
    }
    expect(stored).toBe(3);
    expect(v2Figures(pool.stratum)).toMatchObject({ connections: 1, channels: 1 });
    // The operator's per-port figures (listener.ts PortWork): this V2 port's shares, not its V1 neighbour's.
    const byPort = new Map(pool.stratum.ports().map((p) => [p.port, p] as const));
    expect(byPort.get(v2Port())).toMatchObject({ connections: 1 });
    expect(byPort.get(v2Port())?.sharesPerSecond).toBeGreaterThan(0);
    expect(byPort.get(v2Port())?.hashrate).toBeGreaterThan(0);
    expect(byPort.get(pool.ports[0] as number)).toMatchObject({ sharesPerSecond: 0, hashrate: 0 });
  });

  it('accepts a standard-channel share on the merkle root the pool computed for the channel', async () => {
    const client = await miner();
    const opened = await client.open('standard', `${chain.poolAddress}.v2std`);
    if (!opened.ok) throw new Error(opened.errorCode);
    const work = await opened.work;
    expect(work.job.type).toBe('NewMiningJob');
    const target = u256ToTarget(opened.target);
    const found = findNonce(work, undefined, (h) => h <= target && h > networkTarget(work));
    const answer = client.next('SubmitSharesSuccess');
    client.send({
      type: 'SubmitSharesStandard',
      channelId: opened.channelId,
      sequenceNumber: 9,
      jobId: work.job.jobId,
      nonce: found.nonce,
      ntime: found.ntime,
      version: found.version,
    });
    expect(await answer).toMatchObject({ lastSequenceNumber: 9, newSubmitsAcceptedCount: 1 });
  });

  it('refuses a SetupConnection for another protocol, and hangs up on a silent connection after the handshake deadline', async () => {
    const client = await Sv2TestClient.connect(v2Port(), authority);
    clients.push(client);
    const refusal = client.next('SetupConnectionError');
    client.send({
      type: 'SetupConnection',
      protocol: 1,
      minVersion: 2,
      maxVersion: 2,
      flags: 0,
      endpointHost: '',
      endpointPort: 0,
      vendor: '',
      hardwareVersion: '',
      firmware: '',
      deviceId: '',
    });
    expect((await refusal).errorCode).toBe('unsupported-protocol');
    const silent = net.connect({ port: v2Port(), host: '127.0.0.1' });
    silent.on('error', () => undefined);
    const started = Date.now();
    await new Promise((resolve) => silent.once('close', resolve));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('is refused by a miner holding another authority key (certificate check)', async () => {
    const other = schnorr.getPublicKey(schnorr.utils.randomSecretKey());
    const refused = await Sv2TestClient.connect(v2Port(), other).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Sv2HandshakeRefused);
    expect((refused as Sv2HandshakeRefused).reason).toMatchObject({
      code: 'bad-certificate',
      check: 'bad-signature',
    });
  });

  it('refuses low-difficulty, duplicate, unknown-job and unknown-channel shares with the spec codes', async () => {
    const hard = await miner(hardPort());
    const h = await extended(hard, `${chain.poolAddress}.v2hard`);
    const extranonce = Buffer.alloc(h.extranonceSize);
    const submit = (
      c: Sv2TestClient,
      channelId: number,
      seq: number,
      jobId: number,
      nonce: number,
      work: ChannelWork,
    ) =>
      c.send({
        type: 'SubmitSharesExtended',
        channelId,
        sequenceNumber: seq,
        jobId,
        nonce,
        ntime: work.prevHash.minNtime,
        version: work.job.version,
        extranonce,
      });
    const code = (c: Sv2TestClient, seq: number) =>
      c.next('SubmitSharesError', (m) => m.sequenceNumber === seq).then((m) => m.errorCode);
    let answer = code(hard, 1);
    // Above the network target too: a hash under it is a block, credited whatever the share target.
    const low = findNonce(
      h.firstWork,
      { extranoncePrefix: h.extranoncePrefix, extranonce },
      (x) => x > networkTarget(h.firstWork),
    );
    submit(hard, h.channelId, 1, h.firstWork.job.jobId, low.nonce, h.firstWork);
    expect(await answer).toBe('difficulty-too-low');
    answer = code(hard, 2);
    submit(hard, h.channelId, 2, 0x7fffffff, 1, h.firstWork);
    expect(await answer).toBe('invalid-job-id');
    answer = code(hard, 3);
    submit(hard, h.channelId + 100, 3, h.firstWork.job.jobId, 1, h.firstWork);
    expect(await answer).toBe('invalid-channel-id');

    const easy = await miner();
    const e = await extended(easy, `${chain.poolAddress}.v2dup`);
    const target = u256ToTarget(e.target);
    const parts = { extranoncePrefix: e.extranoncePrefix, extranonce };
    const found = findNonce(e.firstWork, parts, (x) => x <= target && x > networkTarget(e.firstWork));
    const ok = easy.next('SubmitSharesSuccess');
    submit(easy, e.channelId, 1, e.firstWork.job.jobId, found.nonce, e.firstWork);
    await ok;
    answer = code(easy, 2);
    submit(easy, e.channelId, 2, e.firstWork.job.jobId, found.nonce, e.firstWork);
    expect(await answer).toBe('duplicate-share');
  });

  it('refuses a share on the previous tip as stale once SetNewPrevHash moved the channel on', async () => {
    const client = await miner();
    const c = await extended(client, `${chain.poolAddress}.v2stale`);
    const extranonce = Buffer.alloc(c.extranonceSize);
    const target = u256ToTarget(c.target);
    const old = c.firstWork;
    const found = findNonce(old, { extranoncePrefix: c.extranoncePrefix, extranonce }, (x) => x <= target);
    const next = client.work(c.channelId);
    const [hash] = await pool.node.rpc.call<string[]>('generatetoaddress', [1, chain.poolAddress]);
    const moved = await next;
    expect(Buffer.from(moved.prevHash.prevHash).reverse().toString('hex')).toBe(hash);
    const answer = client.next('SubmitSharesError', (m) => m.sequenceNumber === 5);
    client.send({
      type: 'SubmitSharesExtended',
      channelId: c.channelId,
      sequenceNumber: 5,
      jobId: old.job.jobId,
      nonce: found.nonce,
      ntime: found.ntime,
      version: found.version,
      extranonce,
    });
    expect((await answer).errorCode).toBe('stale-share');
  });

  it('submits a block found over V2 to bcoin, which makes it the tip', async () => {
    const client = await miner();
    const c = await extended(client, `${chain.poolAddress}.v2block`);
    const extranonce = Buffer.alloc(c.extranonceSize, 1);
    const work = c.firstWork;
    const found = findNonce(
      work,
      { extranoncePrefix: c.extranoncePrefix, extranonce },
      (x) => x <= networkTarget(work),
    );
    const answer = client.next('SubmitSharesSuccess');
    client.send({
      type: 'SubmitSharesExtended',
      channelId: c.channelId,
      sequenceNumber: 1,
      jobId: work.job.jobId,
      nonce: found.nonce,
      ntime: found.ntime,
      version: found.version,
      extranonce,
    });
    await answer;
    // The block's hash as the node prints it: the hash read as a big-endian number.
    const hash = found.hash.toString(16).padStart(64, '0');
    let best = '';
    for (let i = 0; i < 100 && best !== hash; i++) {
      best = await pool.node.getBestBlockHash();
      if (best !== hash) await new Promise((r) => setTimeout(r, 100));
    }
    expect(best).toBe(hash);
  });

  it('submits a block whose hash misses a far harder share target (a port at difficulty 1e6) and answers it accepted', async () => {
    const client = await miner(hardPort());
    const c = await extended(client, `${chain.poolAddress}.v2hardblock`);
    const extranonce = Buffer.alloc(c.extranonceSize, 2);
    const work = c.firstWork;
    const shareTarget = u256ToTarget(c.target);
    const found = findNonce(
      work,
      { extranoncePrefix: c.extranoncePrefix, extranonce },
      (x) => x <= networkTarget(work) && x > shareTarget,
    );
    const answer = client.next('SubmitSharesSuccess');
    client.send({
      type: 'SubmitSharesExtended',
      channelId: c.channelId,
      sequenceNumber: 1,
      jobId: work.job.jobId,
      nonce: found.nonce,
      ntime: found.ntime,
      version: found.version,
      extranonce,
    });
    expect((await answer).newSubmitsAcceptedCount).toBe(1);
    const hash = found.hash.toString(16).padStart(64, '0');
    await vi.waitFor(async () => expect(await pool.node.getBestBlockHash()).toBe(hash), {
      timeout: 10_000,
      interval: 100,
    });
  });

  it('holds a channel at the target its miner names, follows UpdateChannel with SetTarget, and credits a share at the new target', async () => {
    const client = await miner();
    const asked = difficultyToTarget(3.2e-10, 'sha256d');
    const opened = await client.open('extended', `${chain.poolAddress}.v2held`, targetToU256(asked));
    if (!opened.ok) throw new Error(opened.errorCode);
    expect(u256ToTarget(opened.target)).toBe(asked);
    await opened.work;

    const updated = difficultyToTarget(4e-10, 'sha256d');
    const setTarget = client.next('SetTarget', (m) => m.channelId === opened.channelId);
    client.send({
      type: 'UpdateChannel',
      channelId: opened.channelId,
      nominalHashRate: 1e6,
      maximumTarget: targetToU256(updated),
    });
    expect(u256ToTarget((await setTarget).maximumTarget)).toBe(updated);

    // A job sent after SetTarget is judged at the new target: a share between it and the network's is credited.
    const next = client.work(opened.channelId);
    await pool.node.rpc.call<string[]>('generatetoaddress', [1, chain.poolAddress]);
    const work = await next;
    const extranonce = Buffer.alloc(opened.extranonceSize, 3);
    const found = findNonce(
      work,
      { extranoncePrefix: opened.extranoncePrefix, extranonce },
      (h) => h <= updated && h > networkTarget(work),
    );
    const answer = client.next('SubmitSharesSuccess', (m) => m.channelId === opened.channelId);
    client.send({
      type: 'SubmitSharesExtended',
      channelId: opened.channelId,
      sequenceNumber: 1,
      jobId: work.job.jobId,
      nonce: found.nonce,
      ntime: found.ntime,
      version: found.version,
      extranonce,
    });
    expect(await answer).toMatchObject({ newSubmitsAcceptedCount: 1 });
  });

  it("leaves a miner that names a target easier than the port allows to the pool's vardiff, from the port's start", async () => {
    const client = await miner();
    const easier = difficultyToTarget(1e-10, 'sha256d');
    const opened = await client.open('extended', `${chain.poolAddress}.v2floor`, targetToU256(easier));
    if (!opened.ok) throw new Error(opened.errorCode);
    expect(u256ToTarget(opened.target)).toBe(difficultyToTarget(LOW_DIFFICULTY, 'sha256d'));
  });

  it('refuses a channel past the V1 logins of one connection, and past the V1 connections of one address, with too-many-channels', async () => {
    const first = await miner();
    const login = (i: number): string => `${chain.poolAddress}.cap${i}`;
    for (let i = 0; i < 32; i++) expect((await first.open('extended', login(i))).ok).toBe(true);
    expect(await first.open('extended', login(32))).toEqual({ ok: false, errorCode: 'too-many-channels' });

    const open = v2Figures(pool.stratum).channels;
    expect(open).toBeLessThan(60 - 1);
    const second = await miner();
    for (let i = open; i < 60; i++) expect((await second.open('standard', login(100 + i))).ok).toBe(true);
    expect(await second.open('standard', login(200))).toEqual({ ok: false, errorCode: 'too-many-channels' });
    expect(v2Figures(pool.stratum).channels).toBe(60);

    // A closed channel gives its place back to the address.
    first.send({ type: 'CloseChannel', channelId: 1, reasonCode: 'done' });
    await vi.waitFor(() => expect(v2Figures(pool.stratum).channels).toBe(59));
    expect((await second.open('standard', login(201))).ok).toBe(true);

    // Hanging up gives every channel of both connections back.
    first.close();
    second.close();
    await vi.waitFor(() => expect(v2Figures(pool.stratum).channels).toBe(open - 32));
  });

  it('closes connections that send garbage, a truncated frame or replayed ciphertext, and keeps serving', async () => {
    const closed = (c: Sv2TestClient) =>
      new Promise<void>((resolve) => (c.closed ? resolve() : c.socket.once('close', () => resolve())));
    const before = { ...pool.stratum.stats().sharesRejected };
    const badFrames = v2Figures(pool.stratum).faults['bad-frame'] ?? 0;
    const garbage = await miner();
    garbage.writeRaw(Buffer.from('{"id":1,"method":"mining.subscribe","params":[]}\n'.repeat(4)));
    await closed(garbage);

    const truncated = await miner();
    truncated.writeRaw(Buffer.alloc(10, 0x41));
    truncated.socket.end();
    await closed(truncated);

    const replayed = await Sv2TestClient.connect(v2Port(), authority);
    clients.push(replayed);
    const writes: Buffer[] = [];
    const write = replayed.socket.write.bind(replayed.socket);
    replayed.socket.write = (chunk: Buffer) => {
      writes.push(Buffer.from(chunk));
      return write(chunk);
    };
    expect((await replayed.setup()).type).toBe('SetupConnectionSuccess');
    replayed.writeRaw(writes[0] as Buffer);
    await closed(replayed);
    expect(pool.stratum.stats().sharesRejected).toEqual(before);
    expect(v2Figures(pool.stratum).faults['bad-frame']).toBe(badFrames + 3);

    const honest = await miner();
    const c = await extended(honest, `${chain.poolAddress}.v2after`);
    expect(c.channelId).toBe(1);
  });
});
