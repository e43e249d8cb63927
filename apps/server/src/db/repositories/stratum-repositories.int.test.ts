import { expect, it } from 'vitest';
import { numberArray, textArray } from '../arrays.js';
import { describeEachDatabase } from '../../../test/support/db.js';
import { PayeesRepository } from './payees.js';
import { WorkersRepository } from './workers.js';
import { SharesRepository } from './shares.js';
import { BlocksRepository } from './blocks.js';
import { ChainTipsRepository, TemplateRewardsRepository } from './chain-tips.js';

const WALLET = 'rb1qexamplewalletaddress0000000000000000';

describeEachDatabase('stratum repositories', (db) => {
  it('reads the bulk array literals back exactly, quotes and SQL included', async () => {
    const texts = ['BTC', 'a"b', 'c\\d', 'NULL', '', "x'); DROP TABLE shares;--", 'منجم'];
    const numbers = [1, -2, 0.5, 1e-10, 2 ** 40];
    const result = await db().query<{ t: string[]; n: number[] }>(
      'SELECT $1::text[] AS t, $2::float8[] AS n',
      [textArray(texts), numberArray(numbers)],
    );
    expect(result.rows[0]?.t).toEqual(texts);
    expect(result.rows[0]?.n.map(Number)).toEqual(numbers);
  });

  it('creates a wallet payee once and answers the same id for the same address', async () => {
    const payees = new PayeesRepository(db());
    const first = await payees.ensureWallet('BTC', WALLET);
    expect(await payees.ensureWallet('BTC', WALLET)).toBe(first);
    expect(await payees.ensureWallet('LTC', WALLET)).not.toBe(first);
    expect((await payees.get(first))?.kind).toBe('wallet');
  });

  it('finds an account by username in any letter case and links its payee', async () => {
    await db().query("INSERT INTO users (username, email, password_hash) VALUES ('Miner1', 'm1@x.io', 'h')");
    const payees = new PayeesRepository(db());
    const account = await payees.findAccount('MINER1');
    expect(account?.username).toBe('Miner1');
    expect(await payees.findAccount('nobody')).toBeUndefined();
    const payeeId = await payees.ensureUser('BTC', account!.id);
    expect((await payees.get(payeeId))?.userId).toBe(account!.id);
    expect(await payees.ensureUser('BTC', account!.id)).toBe(payeeId);
  });

  it('creates workers on first sight and adds share counters batch by batch', async () => {
    const payeeId = await new PayeesRepository(db()).ensureWallet('BTC', `${WALLET}w`);
    const workers = new WorkersRepository(db());
    const ids = await workers.ensure([
      { payeeId, coin: 'BTC', name: 'rig1', algorithm: 'sha256d' },
      { payeeId, coin: 'BTC', name: 'default', algorithm: 'sha256d' },
    ]);
    const rig1 = ids.get(`${payeeId}:rig1`)!;
    expect(
      (await workers.ensure([{ payeeId, coin: 'BTC', name: 'rig1', algorithm: 'sha256d' }])).get(
        `${payeeId}:rig1`,
      ),
    ).toBe(rig1);
    const t1 = new Date('2026-01-01T00:00:10Z');
    await workers.addCounters([
      { workerId: rig1, accepted: 3, rejected: 2, stale: 1, lastShareAt: t1, bestDifficulty: 5 },
    ]);
    await workers.addCounters([
      { workerId: rig1, accepted: 1, rejected: 0, stale: 0, lastShareAt: null, bestDifficulty: 2 },
    ]);
    const row = await workers.get(rig1);
    expect(row).toMatchObject({
      acceptedShares: 4n,
      rejectedShares: 2n,
      staleShares: 1n,
      bestDifficulty: 5,
      name: 'rig1',
    });
    expect(row?.lastShareAt?.toISOString()).toBe(t1.toISOString());
    expect((await workers.listByPayee(payeeId)).map((w) => w.name)).toEqual(['default', 'rig1']);
  });

  it('finds existing workers by account or wallet without creating any, and un-hides one only with accepted shares', async () => {
    await db().query("INSERT INTO users (username, email, password_hash) VALUES ('finder', 'f@x.io', 'h')");
    const payees = new PayeesRepository(db());
    const userId = (await payees.findAccount('finder'))!.id;
    const userPayee = await payees.ensureUser('BTC', userId);
    const walletPayee = await payees.ensureWallet('BTC', `${WALLET}f`);
    const workers = new WorkersRepository(db());
    const ids = await workers.ensure([
      { payeeId: userPayee, coin: 'BTC', name: 'rig', algorithm: 'sha256d' },
      { payeeId: walletPayee, coin: 'BTC', name: 'farm', algorithm: 'sha256d' },
    ]);
    const lookup = (key: string, name: string, who: { userId?: number; address?: string }, coin = 'BTC') => ({
      key,
      coin,
      userId: who.userId ?? null,
      address: who.address ?? null,
      name,
    });
    const found = await workers.findIds([
      lookup('a', 'rig', { userId }),
      lookup('b', 'farm', { address: `${WALLET}f` }),
      lookup('c', 'planted', { userId }),
      lookup('d', 'rig', { userId }, 'LTC'),
      lookup('e', 'farm', { userId }),
    ]);
    expect([...found.entries()].sort()).toEqual([
      ['a', ids.get(`${userPayee}:rig`)],
      ['b', ids.get(`${walletPayee}:farm`)],
    ]);
    const count = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM workers WHERE name = $1', [
      'planted',
    ]);
    expect(count.rows[0]?.n).toBe(0);

    const rig = ids.get(`${userPayee}:rig`)!;
    await db().query('UPDATE workers SET hidden_at = now() WHERE id = $1', [rig]);
    const rejectedOnly = {
      workerId: rig,
      accepted: 0,
      rejected: 5,
      stale: 0,
      lastShareAt: null,
      bestDifficulty: 0,
    };
    await workers.addCounters([rejectedOnly]);
    expect(await workers.listByPayee(userPayee)).toEqual([]);
    await workers.addCounters([{ ...rejectedOnly, accepted: 1, rejected: 0, lastShareAt: new Date() }]);
    expect(
      (await workers.listByPayee(userPayee)).map((w) => [w.name, w.acceptedShares, w.rejectedShares]),
    ).toEqual([['rig', 1n, 5n]]);
  });

  it('stores shares and sums per-minute stats for worker, payee and pool hashrate', async () => {
    const payeeId = await new PayeesRepository(db()).ensureWallet('BTC', `${WALLET}s`);
    const workerId = (
      await new WorkersRepository(db()).ensure([{ payeeId, coin: 'BTC', name: 'a', algorithm: 'sha256d' }])
    ).get(`${payeeId}:a`)!;
    const shares = new SharesRepository(db());
    const at = new Date('2030-01-01T00:00:30Z');
    const bucket = new Date('2030-01-01T00:00:00Z');
    await shares.insertMany([
      {
        workerId,
        payeeId,
        coin: 'BTC',
        difficulty: 2,
        networkDifficulty: 100,
        height: 10,
        scheme: 'pps-plus',
        createdAtMs: at.getTime(),
      },
      {
        workerId,
        payeeId,
        coin: 'BTC',
        difficulty: 3,
        networkDifficulty: 100,
        height: 10,
        scheme: 'solo',
        createdAtMs: at.getTime(),
      },
    ]);
    expect(await shares.countForWorker(workerId)).toBe(2);
    const stored = await db().query<{ created_at: Date | string; difficulty: number; scheme: string }>(
      'SELECT created_at, difficulty, scheme FROM shares WHERE worker_id = $1 ORDER BY difficulty',
      [workerId],
    );
    expect(
      stored.rows.map((r) => [new Date(r.created_at).toISOString(), Number(r.difficulty), r.scheme]),
    ).toEqual([
      [at.toISOString(), 2, 'pps-plus'],
      [at.toISOString(), 3, 'solo'],
    ]);
    const stat = {
      workerId,
      bucket,
      accepted: 2,
      acceptedDifficulty: 5,
      stale: 1,
      duplicate: 0,
      lowDifficulty: 2,
      invalid: 0,
    };
    await shares.addStats([stat]);
    await shares.addStats([{ ...stat, accepted: 1, acceptedDifficulty: 1, stale: 0, lowDifficulty: 0 }]);
    expect(await shares.payeeDifficultySince(payeeId, bucket)).toBe(6);
    expect(await shares.poolDifficultySince('BTC', bucket)).toBeGreaterThanOrEqual(6);
    expect(await shares.sumsByWorkerOfPayee(payeeId, bucket)).toEqual([
      { id: workerId, difficulty: 6, accepted: 3, rejected: 3 },
    ]);
    expect(await shares.payeeDifficultySince(payeeId, new Date('2030-01-01T00:01:00Z'))).toBe(0);
  });

  it('claims a share batch id only once', async () => {
    const shares = new SharesRepository(db());
    expect(await shares.claimBatch('batch-1')).toBe(true);
    expect(await shares.claimBatch('batch-1')).toBe(false);
  });

  it('records a found block once with its money in base units', async () => {
    const blocks = new BlocksRepository(db());
    const block = {
      coin: 'BTC',
      height: 101,
      hash: 'ab'.repeat(32),
      finderWorkerId: null,
      finderPayeeId: null,
      scheme: 'pps-plus' as const,
      reward: 5_000_012_345n,
      subsidy: 5_000_000_000n,
      fees: 12_345n,
      networkDifficulty: 1e-9,
      shareDifficulty: 0.001,
      status: 'pending' as const,
      submitResult: null,
      foundAt: new Date('2030-01-01T00:00:00Z'),
    };
    const id = await blocks.insertFound(block);
    expect(id).toBeTypeOf('number');
    expect(await blocks.insertFound(block)).toBeUndefined();
    expect(await blocks.byHash(block.hash)).toMatchObject({
      reward: 5_000_012_345n,
      fees: 12_345n,
      status: 'pending',
    });
    expect((await blocks.listRecent('BTC', 5)).map((b) => b.height)).toEqual([101]);
  });

  it('keeps one chain tip per coin', async () => {
    const tips = new ChainTipsRepository(db());
    await tips.upsert({ coin: 'LTC', height: 5, hash: 'aa', networkDifficulty: 1 });
    await tips.upsert({ coin: 'LTC', height: 6, hash: 'bb', networkDifficulty: 2 });
    expect(await tips.get('LTC')).toMatchObject({ height: 6, hash: 'bb', networkDifficulty: 2 });
  });

  it("keeps a height's first template reward and answers it to a richer template of the height", async () => {
    const rewards = new TemplateRewardsRepository(db());
    expect(await rewards.record('XMR', 100, 35_177_695_384_089n)).toBe(35_177_695_384_089n);
    expect(await rewards.record('XMR', 100, 35_180_300_584_089n)).toBe(35_177_695_384_089n);
    expect(await rewards.get('XMR', 100)).toBe(35_177_695_384_089n);
    expect(await rewards.record('XMR', 101, 35_180_300_584_089n)).toBe(35_180_300_584_089n);
  });
});
