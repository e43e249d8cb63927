// The Kaspa dialect on a real kaspad simnet chain, once per notify form: the project's test miner
// gets jobs, mines real kHeavyHash nonces, has honest shares accepted (in the share log before it
// reads `true`), duplicate, stale, low-difficulty and malformed ones refused, and finds blocks
// kaspad takes into its DAG, also from a port whose share difficulty is far above the network's.
// Figures are printed.
import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startKaspaStandalone,
  TEST_VARDIFF,
  type KaspaStandalone,
} from '../../../../test/support/coins/kaspa/stratum/standalone.js';
import { KaspaTestMiner } from '../../../../test/support/coins/kaspa/stratum/miner.js';
import { configSchema } from '../../../config/index.js';
import { KaspaStratumServer } from './server.js';

const logger = pino({ level: 'warn' });
const JOB_VALID_MS = 1_500;
const HONEST_SHARES = 5;
const figures: Record<string, number | string> = {};
const figure = (name: string, value: number | string): void => {
  figures[name] = value;
  process.stdout.write(`[figure] KAS stratum ${name}: ${value}\n`);
};

let pool: KaspaStandalone;

beforeAll(async () => {
  const started = performance.now();
  pool = await startKaspaStandalone({ logger, jobValidMs: JOB_VALID_MS });
  figure('dev chain + port start (ms)', Math.round(performance.now() - started));
}, 300_000);

afterAll(async () => {
  await pool?.stop();
  figure('template source', JSON.stringify(pool?.source.figures));
  process.stdout.write(`[figures] ${JSON.stringify(figures)}\n`);
});

async function authorized(agent: string, worker: string): Promise<KaspaTestMiner> {
  const miner = await pool.connect();
  const subscribed = await miner.request('mining.subscribe', [agent, 'EthereumStratum/1.0.0']);
  expect(subscribed.result).toEqual([true, 'EthereumStratum/1.0.0']);
  const auth = await miner.request('mining.authorize', [`${pool.chain.poolAddress}.${worker}`, 'x']);
  expect(auth).toMatchObject({ result: true, error: null });
  await miner.jobCount(1);
  return miner;
}

const networkTarget = (): bigint => pool.source.current!.target;

describe.each([
  { form: 'words', agent: 'lolMiner 1.88' },
  { form: 'big-job', agent: 'BzMiner-v21.5.3' },
] as const)('a $agent miner on the Kaspa port ($form notify)', ({ form, agent }) => {
  let miner: KaspaTestMiner;
  beforeAll(async () => {
    miner = await authorized(agent, `rig-${form}`);
  }, 30_000);
  afterAll(() => miner?.close());

  it('gets its extranonce, a difficulty and a job in its form right after the authorize reply', () => {
    const methods = miner.lines.map((line) => /"method":"([^"]+)"/.exec(line)?.[1] ?? 'reply');
    expect(methods.slice(0, 5)).toEqual([
      'reply',
      'reply',
      'mining.set_extranonce',
      'mining.set_difficulty',
      'mining.notify',
    ]);
    expect(miner.extranonce).toMatch(/^[0-9a-f]{4}$/);
    // Two bytes of extranonce leave six to the miner (IceRiver and BzMiner firmware expect this).
    expect(miner.lines.find((l) => l.includes('mining.set_extranonce'))).toContain(
      `"params":["${miner.extranonce}",6]`,
    );
    expect(miner.jobs[0]?.form).toBe(form);
    expect(miner.lines.find((l) => l.includes('mining.notify'))).not.toContain('"id"');
  });

  it('accepts honest shares and has each in the share log before the miner reads true', async () => {
    const started = performance.now();
    for (let i = 0; i < HONEST_SHARES; i++) {
      const job = miner.jobs[miner.jobs.length - 1]!;
      const nonce = miner.find(job, (pow, share) => pow <= share && pow > networkTarget());
      const before = pool.sink.accepted.length;
      const reply = await miner.submit(`rig-${form}`, job, nonce);
      expect(reply).toMatchObject({ result: true, error: null });
      expect(pool.sink.accepted.length).toBe(before + 1);
      expect(pool.sink.accepted.at(-1)?.miner.workerKey).toBe(`KAS:w:${pool.chain.poolAddress}.rig-${form}`);
    }
    figure(
      `${form}: ${HONEST_SHARES} honest shares round trip (ms)`,
      Math.round(performance.now() - started),
    );
  });

  it('refuses the same nonce sent twice with "Duplicate share"', async () => {
    const job = miner.jobs[miner.jobs.length - 1]!;
    const nonce = miner.find(job, (pow, share) => pow <= share && pow > networkTarget());
    expect((await miner.submit('w', job, nonce)).result).toBe(true);
    expect((await miner.submit('w', job, `0x${miner.extranonce}${nonce}`)).error).toEqual([
      22,
      'Duplicate share',
      null,
    ]);
  });

  it('refuses a nonce whose kHeavyHash misses the share target with "Low difficulty share"', async () => {
    const job = miner.jobs[miner.jobs.length - 1]!;
    const nonce = miner.find(job, (pow, share) => pow > share);
    expect((await miner.submit('w', job, nonce)).error).toEqual([23, 'Low difficulty share', null]);
  });

  it('refuses malformed nonces and unknown jobs with messages a miner prints', async () => {
    const job = miner.jobs[miner.jobs.length - 1]!;
    expect((await miner.submit('w', job, 'not-hex')).error).toEqual([
      20,
      'Nonce must be 1 to 16 hex digits',
      null,
    ]);
    expect((await miner.submit('w', job, 'ffffffff00000001')).error).toEqual([
      20,
      'Nonce does not start with the extranonce',
      null,
    ]);
    expect((await miner.submit('w', { ...job, id: '999999' }, '01')).error).toEqual([
      21,
      'Job not found',
      null,
    ]);
  });

  it('submits a block found under the network target, and kaspad takes it into its DAG', async () => {
    const job = miner.jobs[miner.jobs.length - 1]!;
    const nonce = miner.find(job, (pow) => pow <= networkTarget());
    const recorded = pool.sink.nextBlock();
    const started = performance.now();
    expect((await miner.submit('w', job, nonce)).result).toBe(true);
    const block = await recorded;
    figure(`${form}: block found -> recorded (ms)`, Math.round(performance.now() - started));
    expect(block.status).toBe('pending');
    const inDag = await pool.chain.node.getBlock(block.hash, false);
    expect(inDag.verboseData?.hash).toBe(block.hash);
    expect(inDag.header?.nonce).toBe(BigInt(`0x${miner.extranonce}${nonce}`).toString());
  });

  it('takes shares on a replaced job for a while, then refuses them with "Stale job"', async () => {
    const old = miner.jobs[miner.jobs.length - 1]!;
    const count = miner.jobs.length;
    await pool.chain.mine(1);
    await miner.jobCount(count + 1);
    const fresh = miner.find(old, (pow, share) => pow <= share && pow > networkTarget());
    expect((await miner.submit('w', old, fresh)).result).toBe(true);
    await delay(JOB_VALID_MS + 300);
    const late = miner.find(old, (pow, share) => pow <= share);
    expect((await miner.submit('w', old, late)).error).toEqual([21, 'Stale job', null]);
  }, 30_000);
});

describe('what the Kaspa port tells particular miners', () => {
  it('answers Bitmain KS firmware with [null, extranonce, nonce bytes left]', async () => {
    const miner = await pool.connect();
    const reply = await miner.request('mining.subscribe', ['GodMiner/2.0.0', 'EthereumStratum/1.0.0']);
    expect(reply.result).toEqual([null, expect.stringMatching(/^[0-9a-f]{4}$/), 6]);
    miner.close();
  });

  it('sends IceRiver firmware difficulties that are powers of two, and big jobs', async () => {
    const miner = await pool.connect();
    await miner.request('mining.subscribe', ['IceRiverMiner-v1.1', 'EthereumStratum/1.0.0']);
    await miner.request('mining.authorize', [`${pool.chain.poolAddress}.ks0`, 'x']);
    const job = await miner.jobCount(1);
    expect(Number.isInteger(Math.log2(miner.difficulty))).toBe(true);
    expect(job.form).toBe('big-job');
    miner.close();
  });

  it("lands a block on kaspad from a miner whose share difficulty sits far above the network's", async () => {
    // A port whose minimum is 2^-20, about 2^11 times simnet's difficulty: the share target is far
    // harder than the network's, so a hash between the two is a block the share target misses.
    const { stratum } = configSchema.parse({});
    const hard = new KaspaStratumServer({
      port: 0,
      host: '127.0.0.1',
      network: pool.chain.network,
      scheme: 'pps-plus',
      vardiff: { ...TEST_VARDIFF, start: 2 ** -20, min: 2 ** -20 },
      stratum,
      source: pool.source,
      sink: pool.sink,
      logger,
    });
    const miner = await KaspaTestMiner.connect(await hard.listen());
    try {
      await miner.request('mining.subscribe', ['lolMiner 1.88', 'EthereumStratum/1.0.0']);
      await miner.request('mining.authorize', [`${pool.chain.poolAddress}.hard`, 'x']);
      const job = await miner.jobCount(1);
      expect(job.difficulty).toBe(2 ** -20);
      const nonce = miner.find(job, (pow, share) => pow <= networkTarget() && pow > share);
      const accepted = pool.sink.accepted.length;
      const recorded = pool.sink.nextBlock();
      expect(await miner.submit('w', job, nonce)).toMatchObject({ result: true, error: null });
      const block = await recorded;
      expect(block).toMatchObject({ status: 'pending', shareDifficulty: 2 ** -20 });
      expect(pool.sink.accepted.slice(accepted).map((share) => share.difficulty)).toEqual([2 ** -20]);
      const inDag = await pool.chain.node.getBlock(block.hash, false);
      expect(inDag.verboseData?.hash).toBe(block.hash);
    } finally {
      miner.close();
      await hard.close();
    }
  }, 60_000);

  it('refuses a login that is neither a kaspasim address nor an account, and closes', async () => {
    const miner = await pool.connect();
    await miner.request('mining.subscribe', ['lolMiner 1.88']);
    const reply = await miner.request('mining.authorize', ['kaspa:qqqqnotanaddress.w', 'x']);
    expect(reply.error).toEqual([24, 'Invalid address: not a Kaspa simnet address', null]);
    await delay(100);
    expect(miner.closed).toBe(true);
  });
});
