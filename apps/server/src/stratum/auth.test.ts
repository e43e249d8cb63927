import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { coinParams } from '@manjam/protocol';
import { LoginResolver } from './auth.js';
import { closeSharedDatabase, sharedDatabase } from '../../test/support/coins/bitcoin/stratum/unit-pool.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });
const BTC = coinParams('BTC', 'regtest');

beforeAll(async () => {
  const { db } = await sharedDatabase();
  await db.query(
    "INSERT INTO users (username, email, password_hash) VALUES ('Karim', 'karim@x.io', 'h') ON CONFLICT DO NOTHING",
  );
});
afterAll(closeSharedDatabase);

describe('stratum login resolver', () => {
  it('keeps a bounded cache: a flood of made-up names neither grows it nor pushes a real account out', async () => {
    const resolver = new LoginResolver((await sharedDatabase()).db, { accounts: 3, unknown: 5 });
    expect(await resolver.resolve('karim.rig1', 'BTC', BTC)).toMatchObject({ ok: true });
    for (let i = 0; i < 40; i++)
      expect(await resolver.resolve(`ghost${i}.rig`, 'BTC', BTC)).toEqual({ ok: false, reason: 'unknown' });
    expect(resolver.cached).toEqual({ accounts: 1, unknown: 5 });
    expect(await resolver.resolve('KARIM.rig2', 'BTC', BTC)).toMatchObject({
      ok: true,
      miner: { workerKey: expect.stringContaining('rig2') as unknown },
    });
  });
});
