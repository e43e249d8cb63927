import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bitsToTarget, difficultyToTarget, targetToDifficulty } from '@manjam/protocol';
import { syntheticTemplate } from '../../../../test/support/coins/bitcoin/stratum/fake-source.js';
import {
  BTC_REGTEST_ADDRESS as ADDRESS,
  EASY_BITS,
  FakeTemplateSource,
} from '../../../../test/support/coins/bitcoin/stratum/fake-source.js';
import { MAX_UNKNOWN_METHODS } from '../../../stratum/framing.js';
import { passwordDifficulty } from '../../../stratum/auth.js';
import {
  closeSharedDatabase,
  sharedDatabase,
  startUnitPool,
  type UnitPool,
} from '../../../../test/support/coins/bitcoin/stratum/unit-pool.js';

/** A network difficulty of about 8.8e13 (mainnet's order): above every share difficulty of these tests. */
const VERY_HARD = '1703255b';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });
let pool: UnitPool | undefined;
beforeAll(async () => {
  await sharedDatabase();
});
afterAll(closeSharedDatabase);
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

// The exact bytes a miner receives for the synthetic template (height 101, prev hash ...e6f7,
// bits 1d00ffff, curtime 1700000000) paying rb1qzyg3...: prevhash with its 4-byte words
// reversed; version, nbits and ntime as big-endian hex; coinbase split around 4 + 4 bytes.
const NOTIFY_LINE =
  '{"id":null,"method":"mining.notify","params":["1",' +
  '"c4d5e6f78091a2b34c5d6e7f08192a3bc4d5e6f70001a2b30000000000000000",' +
  '"02000000010000000000000000000000000000000000000000000000000000000000000000ffffffff140165082f4d616e6a616d2f08",' +
  '"ffffffff0100f2052a01000000160014111111111111111111111111111111111111111100000000",' +
  '[],"20000000","1d00ffff","6553f100",true]}';

describe('stratum handlers', () => {
  it('replays a miner session byte for byte: subscribe, authorize, difficulty, notify, submit', async () => {
    pool = await startUnitPool();
    const miner = await pool.connect();
    miner.sendRaw('{"id":1,"method":"mining.subscribe","params":["cgminer/4.11","deadbeef"]}\n');
    miner.sendRaw(`{"id":2,"method":"mining.authorize","params":["${ADDRESS}.rig","x"]}\n`);
    await miner.waitForLine((l) => l.includes('mining.notify'));
    expect(miner.received.slice(0, 3)).toEqual([
      '{"id":1,"result":[[["mining.set_difficulty","deadbeef"],["mining.notify","deadbeef"]],"deadbeef",4],"error":null}',
      '{"id":2,"result":true,"error":null}',
      '{"id":null,"method":"mining.set_difficulty","params":[3e-10]}',
    ]);
    expect(miner.received[3]).toBe(NOTIFY_LINE);
    const share = miner.findShare(await miner.waitForJob(), 'sha256d');
    const submit = `{"id":4,"method":"mining.submit","params":["${ADDRESS}.rig","1","${share.extranonce2}","${share.ntime}","${share.nonce}"]}\n`;
    miner.sendRaw(submit + submit);
    await miner.waitForLine((l) => l.startsWith('{"id":4,"result":null'));
    expect(miner.received.slice(4)).toEqual([
      '{"id":4,"result":true,"error":null}',
      '{"id":4,"result":null,"error":[22,"Duplicate share",null]}',
    ]);
  });

  it('negotiates version rolling as the pool mask AND the requested mask and checks submitted bits against it', async () => {
    pool = await startUnitPool();
    const miner = await pool.connect();
    const configured = await miner.request('mining.configure', [
      ['version-rolling', 'minimum-difficulty', 'subscribe-extranonce'],
      { 'version-rolling.mask': '00fff000', 'minimum-difficulty.value': 1e-9 },
    ]);
    expect(configured.result).toEqual({
      'version-rolling': true,
      'version-rolling.mask': '00ffe000',
      'minimum-difficulty': true,
      'subscribe-extranonce': false,
    });
    await miner.subscribe();
    await miner.authorize(ADDRESS);
    const job = await miner.waitForJob();
    const share = miner.findShare(job, 'sha256d', { accept: () => true });
    expect((await miner.submit(ADDRESS, share, ['00001000'])).error).toEqual([
      20,
      'Version bits outside the negotiated mask',
      null,
    ]);
    const rolled = miner.findShare(
      { ...job, template: { ...job.template, version: job.template.version | 0x2000 } },
      'sha256d',
    );
    expect(await miner.submit(ADDRESS, rolled, ['00002000'])).toMatchObject({ result: true });
    expect((await miner.request('mining.extranonce.subscribe', [])).result).toBe(true);
  });

  it('reads a starting difficulty from the password (d=...) and ignores anything else', () => {
    expect(['d=0.5', 'x,d=0.5', 'x;d=0.5', 'x d=0.5', 'D=5e-1', 'd=.5'].map(passwordDifficulty)).toEqual([
      0.5, 0.5, 0.5, 0.5, 0.5, 0.5,
    ]);
    expect(['x', '', 'd=', 'd=abc', 'd=-1', 'd=0', 'xd=5', 'd=5x', 'id=5'].map(passwordDifficulty)).toEqual(
      Array(9).fill(undefined),
    );
    expect(passwordDifficulty(undefined)).toBeUndefined();
  });

  it("starts a miner at the password's d=, clamped to the port's vardiff min and max", async () => {
    // A network harder than the port's max: only the port's bounds clamp here.
    pool = await startUnitPool(
      {},
      new FakeTemplateSource('BTC', ADDRESS, syntheticTemplate({ bits: VERY_HARD })),
    );
    const asked = await pool.connect();
    await asked.subscribe();
    expect((await asked.authorize(`${ADDRESS}.cpu`, 'x,d=0.00001')).result).toBe(true);
    expect(await asked.waitForJob()).toMatchObject({ difficulty: 0.00001 });
    expect(asked.received.filter((l) => l.includes('"method":"mining.set_difficulty"'))).toEqual([
      '{"id":null,"method":"mining.set_difficulty","params":[0.00001]}',
    ]);
    const share = asked.findShare(await asked.waitForJob(), 'sha256d');
    expect((await asked.submit(`${ADDRESS}.cpu`, share)).result).toBe(true);

    const high = await pool.connect();
    await high.subscribe();
    await high.authorize(`${ADDRESS}.big`, 'd=1e15');
    expect(await high.waitForJob()).toMatchObject({ difficulty: 1e9 });
    const low = await pool.connect();
    await low.subscribe();
    await low.authorize(`${ADDRESS}.tiny`, 'd=1e-20');
    expect(await low.waitForJob()).toMatchObject({ difficulty: 3e-10 });
  });

  it('never raises a miner above the network difficulty: a password d=, a suggested difficulty and a new template all stop at it', async () => {
    // The synthetic template's network difficulty is 1; the port's max is 1e9.
    pool = await startUnitPool();
    const miner = await pool.connect();
    await miner.subscribe();
    await miner.authorize(`${ADDRESS}.asic`, 'd=50000');
    expect(await miner.waitForJob()).toMatchObject({ difficulty: 1 });
    expect((await miner.request('mining.suggest_difficulty', [1e6])).result).toBe(true);
    pool.source.push(syntheticTemplate({ curtime: 1_700_000_030 }), false);
    await miner.waitForJob((j) => j.id !== '1');
    expect(miner.received.filter((l) => l.includes('"method":"mining.set_difficulty"'))).toEqual([
      '{"id":null,"method":"mining.set_difficulty","params":[1]}',
    ]);
    // A network whose difficulty falls lowers the miner at once, ahead of the new job.
    pool.source.push(syntheticTemplate({ curtime: 1_700_000_060, bits: EASY_BITS }), true);
    const easy = await miner.waitForJob((j) => j.template.bits === EASY_BITS);
    expect(easy.difficulty).toBe(targetToDifficulty(bitsToTarget(EASY_BITS), 'sha256d')); // 4.66e-10
  });

  it('applies a new difficulty from the next notify and honours the old one until then', async () => {
    pool = await startUnitPool(
      {},
      new FakeTemplateSource('BTC', ADDRESS, syntheticTemplate({ bits: VERY_HARD })),
    );
    const miner = await pool.connect();
    await miner.subscribe();
    await miner.authorize(`${ADDRESS}.d`);
    const first = await miner.waitForJob();
    expect((await miner.request('mining.suggest_difficulty', [1e6])).result).toBe(true);
    await miner.waitForLine((l) => l.includes('"params":[1000000]'));
    const easy = miner.findShare(first, 'sha256d');
    expect(easy.built.hashValue > difficultyToTarget(1e6, 'sha256d')).toBe(true);
    expect((await miner.submit(`${ADDRESS}.d`, easy)).result).toBe(true);
    pool.source.push(syntheticTemplate({ curtime: 1_700_000_030, bits: VERY_HARD }), false);
    const second = await miner.waitForJob((j) => j.id !== first.id);
    expect(second).toMatchObject({ clean: false, difficulty: 1e6 });
    const weak = miner.findShare({ ...second, difficulty: 3e-10 }, 'sha256d');
    expect((await miner.submit(`${ADDRESS}.d`, weak)).error).toEqual([23, 'Low difficulty share', null]);
    expect((await miner.submit(`${ADDRESS}.d`, miner.findShare(first, 'sha256d'))).result).toBe(true);
  });

  it('refuses bad parameters with error 20 and unknown methods without closing the connection', async () => {
    pool = await startUnitPool();
    const miner = await pool.connect();
    expect((await miner.request('mining.authorize', [42])).error).toEqual([
      20,
      'Invalid parameters for mining.authorize',
      null,
    ]);
    expect((await miner.request('mining.suggest_difficulty', ['high'])).error?.[0]).toBe(20);
    expect((await miner.request('mining.fly', [])).error).toEqual([20, 'Unknown method mining.fly', null]);
    expect((await miner.subscribe()).error).toBeNull();
  });

  it('answers methods named after members of Object.prototype as unknown, at once, and keeps serving the connection', async () => {
    pool = await startUnitPool();
    const miner = await pool.connect();
    for (const method of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'mining.__proto__'])
      expect((await miner.request(method, [])).error).toEqual([20, `Unknown method ${method}`, null]);
    expect((await miner.subscribe()).error).toBeNull();
    expect((await miner.authorize(ADDRESS)).result).toBe(true);
  });

  it('answers the first unknown methods of a connection and closes it when they keep coming', async () => {
    pool = await startUnitPool();
    const flooder = await pool.connect();
    const bystander = await pool.connect();
    flooder.sendRaw(
      Array.from({ length: 1000 }, (_, i) =>
        JSON.stringify({ id: i + 1, method: '__proto__', params: [] }),
      ).join('\n') + '\n',
    );
    await flooder.closedPromise;
    const answered = flooder.received.filter((l) => l.includes('Unknown method __proto__')).length;
    expect(answered).toBe(MAX_UNKNOWN_METHODS + 1);
    expect((await bystander.subscribe()).error).toBeNull();
  });
});
