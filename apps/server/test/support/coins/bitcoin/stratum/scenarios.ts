// The mining scenarios every chain must pass (BTC on bcoin, LTC before and after MWEB): real
// shares, real blocks the node accepts, the Stratum error codes, hostile input.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  addressToOutputScript,
  algorithmOf,
  blockHashHex,
  difficultyToTarget,
  MIN_SHARE_DIFFICULTY,
} from '@manjam/protocol';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { BlocksRepository } from '../../../../../src/db/repositories/blocks.js';
import { PayeesRepository } from '../../../../../src/db/repositories/payees.js';
import { WorkersRepository } from '../../../../../src/db/repositories/workers.js';
import type { DevChain } from '../../../../../src/coins/bitcoin/devchain/index.js';
import type { PoolEventMap } from '../../../../../src/events.js';
import { selfSignedCertificate } from '../../../self-signed.js';
import { StratumTestClient } from './client.js';
import { blocknotifyFor, freeUdpPort, startPoolOnChain, type PoolOnChain } from './harness.js';

export interface ScenarioOptions {
  coin: BitcoinFamilyCoin;
  start: (blocknotifyCommand: string | undefined) => Promise<DevChain>;
  /** Let the node announce tips with blocknotify (else: longpoll and a 100 ms poll). */
  blocknotify?: boolean;
  /** A share difficulty whose target is above regtest's network target (about half the shares are blocks). */
  lowDifficulty: number;
  /** Expect every template to carry MWEB data. */
  mweb?: boolean;
}

export function miningScenarios(options: ScenarioOptions): void {
  const { coin } = options;
  const algorithm = algorithmOf(coin);
  let chain: DevChain;
  let pool: PoolOnChain;
  const clients: StratumTestClient[] = [];
  const connect = async (portIndex = 0) => {
    const client = await StratumTestClient.connect(pool.ports[portIndex] as number);
    clients.push(client);
    return client;
  };
  const miner = async (login: string, portIndex = 0) => {
    const client = await connect(portIndex);
    expect((await client.subscribe()).error).toBeNull();
    expect((await client.authorize(login)).result).toBe(true);
    await client.waitForJob();
    return client;
  };
  /**
   * The client's job on the node's current tip. Its first job can still be on the tip before the
   * previous test's block when the pool has not yet taken the new template (a loaded machine), and
   * a share on it is rightly stale.
   */
  const jobOnTip = async (client: StratumTestClient) => {
    const tip = await pool.node.getBestBlockHash();
    return client.waitForJob((j) => j.template.prevHashRpc === tip);
  };
  const nextEvent = <K extends keyof PoolEventMap>(name: K, test: (e: PoolEventMap[K]) => boolean) =>
    new Promise<PoolEventMap[K]>((resolve) => {
      const off = pool.events.on(name, (e) => {
        if (!test(e)) return;
        off();
        resolve(e);
      });
    });

  beforeAll(async () => {
    // blocknotify only where it does not spawn a process per initial block (see options.blocknotify).
    const udp = options.blocknotify ? await freeUdpPort() : undefined;
    chain = await options.start(udp === undefined ? undefined : blocknotifyFor(udp, coin));
    pool = await startPoolOnChain({
      coin,
      chain,
      ...(udp === undefined ? {} : { blocknotifyPort: udp }),
      ports: [
        { start: options.lowDifficulty },
        { start: 1e6, min: 1e6, scheme: 'solo' },
        { start: options.lowDifficulty, tls: selfSignedCertificate() },
      ],
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await pool?.close();
    await chain?.stop();
  });

  it('finds a block the node accepts, paying the pool address, and records it with its finder', async () => {
    const address = chain.poolAddress;
    const client = await miner(`${address}.rig1`);
    const job = await jobOnTip(client);
    if (options.mweb) {
      expect(pool.source.current()?.mweb).toBeTruthy();
      expect(pool.source.current()?.height).toBeGreaterThanOrEqual(432);
    }
    const share = client.findShare(job, algorithm, {
      accept: (b, j) => b.hashValue <= j.template.networkTarget,
    });
    const hash = blockHashHex(share.built.header);
    const found = nextEvent('block.found', (e) => e.hash === hash);
    expect(await client.submit(`${address}.rig1`, share)).toMatchObject({ result: true, error: null });
    expect(await found).toMatchObject({ coin, status: 'pending', hash });
    expect(await pool.node.getBestBlockHash()).toBe(hash);
    const raw = await pool.node.rpc.call<string>('getblock', [hash, false]);
    expect(raw.startsWith(share.built.header.toString('hex'))).toBe(true);
    const payout = addressToOutputScript(chain.poolAddress, pool.source.params).toString('hex');
    expect(raw).toContain(payout);
    const block = await new BlocksRepository(pool.db).byHash(hash);
    expect(block).toMatchObject({ coin, status: 'pending', scheme: 'pps-plus', submitResult: null });
    expect(block?.finderWorkerId).not.toBeNull();
    expect(block!.reward).toBe(block!.subsidy + block!.fees);
    const payeeId = await new PayeesRepository(pool.db).ensureWallet(coin, address);
    expect((await new WorkersRepository(pool.db).listByPayee(payeeId)).map((w) => w.name)).toContain('rig1');
  });

  it("lands a block on the node from the solo port, whose share difficulty (1e6) is far above the network's, credited at 1e6", async () => {
    const login = `${chain.poolAddress}.between`;
    const client = await miner(login, 1);
    const job = await jobOnTip(client);
    expect(job.difficulty).toBe(1e6);
    // Looked for at the lowest difficulty (the test miner only keeps hashes under a job's target).
    const share = client.findShare({ ...job, difficulty: MIN_SHARE_DIFFICULTY[algorithm] }, algorithm, {
      accept: (b, j) =>
        b.hashValue <= j.template.networkTarget && b.hashValue > difficultyToTarget(1e6, algorithm),
    });
    const hash = blockHashHex(share.built.header);
    const found = nextEvent('block.found', (e) => e.hash === hash);
    expect(await client.submit(login, share)).toMatchObject({ result: true, error: null });
    expect(await found).toMatchObject({ coin, status: 'pending', hash });
    expect(await pool.node.getBestBlockHash()).toBe(hash);
    expect(await new BlocksRepository(pool.db).byHash(hash)).toMatchObject({
      scheme: 'solo',
      shareDifficulty: 1e6,
    });
  });

  it('moves every miner to the new tip with clean_jobs=true soon after a block', async () => {
    const client = await miner(`${chain.poolAddress}.tip`);
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      const seen = client.jobs.length;
      const before = Date.now();
      const [hash] = await pool.node.rpc.call<string[]>('generatetoaddress', [1, chain.poolAddress]);
      const job = await client.waitForJob((j) => client.jobs.indexOf(j) >= seen && j.clean);
      expect(job.template.prevHashRpc).toBe(hash);
      delays.push(job.receivedMs - before);
    }
    delays.sort((a, b) => a - b);
    process.stdout.write(
      `[stratum ${coin}${options.mweb ? ' mweb' : ''}] new tip -> clean_jobs at the miner: ${delays.join(', ')} ms\n`,
    );
    expect(delays[2]).toBeLessThan(1_000);
  });

  it('serves a port with a certificate over TLS: a miner subscribes, authorizes and has a share accepted', async () => {
    expect(pool.stratum.ports().map((p) => p.tls)).toEqual([false, false, true]);
    const login = `${chain.poolAddress}.tls`;
    const client = await StratumTestClient.connect(pool.ports[2] as number, { tls: true });
    clients.push(client);
    expect((await client.subscribe()).error).toBeNull();
    expect((await client.authorize(login)).result).toBe(true);
    const job = await jobOnTip(client);
    const share = client.findShare(job, algorithm, {
      accept: (b, j) => b.hashValue > j.template.networkTarget,
    });
    expect(await client.submit(login, share)).toMatchObject({ result: true, error: null });
  });

  it('answers crafted bad submits with 20, 21, 22, 23, 24 and 25', async () => {
    const login = `${chain.poolAddress}.bad`;
    const client = await miner(login);
    const job = await jobOnTip(client);
    const notBlock = client.findShare(job, algorithm, {
      accept: (b, j) => b.hashValue > j.template.networkTarget,
    });
    const code = (p: Promise<{ error: [number, string, null] | null }>) => p.then((r) => r.error?.[0]);
    expect(
      await code(client.request('mining.submit', [login, job.id, 'abcd', notBlock.ntime, notBlock.nonce])),
    ).toBe(20);
    expect(
      await code(
        client.request('mining.submit', [
          login,
          job.id,
          notBlock.extranonce2,
          (job.ntime + 9_000).toString(16),
          notBlock.nonce,
        ]),
      ),
    ).toBe(20);
    expect(await code(client.submit(login, notBlock, ['00004000']))).toBe(20);
    expect(
      await code(
        client.request('mining.submit', [
          login,
          'feedbeef',
          notBlock.extranonce2,
          notBlock.ntime,
          notBlock.nonce,
        ]),
      ),
    ).toBe(21);
    expect((await client.submit(login, notBlock)).result).toBe(true);
    expect(await client.submit(login, notBlock)).toMatchObject({
      result: null,
      error: [22, 'Duplicate share', null],
    });
    expect(await code(client.submit('someone-else', notBlock))).toBe(24);
    expect(await code(client.authorize('not_an_account_or_address'))).toBe(24);

    const high = await miner(`${chain.poolAddress}.high`, 1);
    const highJob = await jobOnTip(high);
    // Not a block either: a hash under the network target is a block whatever the share target.
    const weak = high.findShare({ ...highJob, difficulty: MIN_SHARE_DIFFICULTY[algorithm] }, algorithm, {
      accept: (b, j) =>
        b.hashValue <= difficultyToTarget(MIN_SHARE_DIFFICULTY[algorithm], algorithm) &&
        b.hashValue > j.template.networkTarget,
    });
    expect(weak.built.hashValue > difficultyToTarget(highJob.difficulty, algorithm)).toBe(true);
    expect(await high.submit(`${chain.poolAddress}.high`, weak)).toMatchObject({
      error: [23, 'Low difficulty share', null],
    });

    const unsubscribed = await connect();
    expect((await unsubscribed.authorize(login)).result).toBe(true);
    expect(
      await code(
        unsubscribed.request('mining.submit', [login, job.id, '00000000', notBlock.ntime, notBlock.nonce]),
      ),
    ).toBe(25);

    const seen = client.jobs.length;
    await pool.node.rpc.call('generatetoaddress', [1, chain.poolAddress]);
    await client.waitForJob((j) => client.jobs.indexOf(j) >= seen && j.clean);
    const late = client.findShare(job, algorithm);
    expect(await client.submit(login, late)).toMatchObject({ error: [21, 'Stale job', null] });
    expect(pool.stratum.stats().sharesRejected).toMatchObject({ stale: 1, duplicate: 1, low_difficulty: 1 });
  });

  it('keeps serving other miners through junk, an over-long line and a client vanishing mid-line', async () => {
    const steady = await miner(`${chain.poolAddress}.steady`);
    const junk = await connect();
    junk.sendRaw('this is not json\n');
    await junk.closedPromise;
    const long = await connect();
    long.sendRaw(
      '{"id":1,"method":"mining.subscribe","params":["' + 'x'.repeat(pool.config.stratum.maxLineBytes + 10),
    );
    await long.closedPromise;
    const vanishing = await connect();
    vanishing.sendRaw('{"id":1,"method":"mining.subscr');
    await vanishing.close();
    const job = await steady.waitForJob();
    const share = steady.findShare(steady.job ?? job, algorithm);
    expect((await steady.submit(`${chain.poolAddress}.steady`, share)).error?.[0] ?? 0).not.toBe(20);
    expect((await (await connect()).subscribe()).error).toBeNull();
  });
}
