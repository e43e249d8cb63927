/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests read JSON bodies field by field */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  closeSharedDatabase,
  startUnitPool,
  type UnitPool,
} from '../../test/support/coins/bitcoin/stratum/unit-pool.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

/** `аlice` with a Cyrillic а (U+0430): looks like `alice`. */
const LOOKALIKE = '\u0430lice';

describe('usernames: one rule for registration and the Stratum login, no lookalikes', () => {
  let pool: UnitPool;
  let api: TestApi;
  beforeAll(async () => {
    pool = await startUnitPool();
    api = await startTestApi(pool.database.db);
    const alice = await api.request('POST', '/api/auth/register', {
      body: { username: 'alice', email: 'alice@example.com', password: 'longenough1' },
    });
    expect(alice.status).toBe(202);
  });
  afterAll(async () => {
    await api.close();
    await pool.close();
    await closeSharedDatabase();
  });

  it('refuses a lookalike of an existing username, and any name outside ASCII letters, digits, _ and -', async () => {
    for (const username of [LOOKALIKE, 'ali\u200bce', 'ålice', 'alice.rig', 'مُعدِّن', 'al ice']) {
      const res = await api.request('POST', '/api/auth/register', {
        body: { username, email: `${encodeURIComponent(username)}@example.com`, password: 'longenough1' },
      });
      expect(res.status).toBe(400);
      expect(res.json.error.fields.username).toBe(
        'Username may contain only Latin letters (A-Z), digits, dashes and underscores',
      );
    }
    const ar = await api.request('POST', '/api/auth/register', {
      body: { username: LOOKALIKE, email: 'x1@example.com', password: 'longenough1' },
      headers: { 'accept-language': 'ar' },
    });
    expect(ar.json.error.fields.username).toBe(
      'يمكن أن يحتوي اسم المستخدم على أحرف لاتينية (A-Z) وأرقام وشرطات وشرطات سفلية فقط',
    );
    const taken = await api.request('POST', '/api/auth/register', {
      body: { username: 'ALICE', email: 'other@example.com', password: 'longenough1' },
    });
    expect(taken.status).toBe(409);
    expect(
      (
        await api.request('POST', '/api/auth/register', {
          body: { username: 'Bob_miner-2', email: 'bob@example.com', password: 'longenough1' },
        })
      ).status,
    ).toBe(202);
  });

  it('accepts on Stratum exactly the usernames registration accepts', async () => {
    // An account left from before the rule, with a lookalike name: it keeps signing in by email,
    // but cannot mine by that name.
    await pool.database.db.query(
      "INSERT INTO users (username, email, password_hash) VALUES ($1, 'legacy@example.com', 'h')",
      [LOOKALIKE],
    );
    const miner = await pool.connect();
    await miner.subscribe();
    expect(await miner.authorize('alice.rig1')).toMatchObject({ result: true, error: null });
    expect(await miner.authorize('Bob_miner-2.rig1')).toMatchObject({ result: true, error: null });
    for (const login of [`${LOOKALIKE}.rig1`, 'ålice.rig1', 'al.rig1']) {
      const refused = await miner.authorize(login);
      expect(refused.result).not.toBe(true);
      expect((refused.error as unknown[])[0]).toBe(24);
    }
  });
});
