/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests read JSON bodies field by field */
import { generate } from 'otplib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

// 2FA recovery codes (issue 27): ten single-use codes when 2FA is turned on, accepted at sign-in in
// place of a TOTP code, regenerated with the password and a current code.

describeEachDatabase('2FA recovery codes over HTTP', (getDb) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(getDb());
  });
  afterAll(() => api.close());

  /** A signed-up account with 2FA on: its recovery codes and a source of fresh TOTP codes. */
  async function withTwoFactor() {
    const account = await api.signUp();
    const secret = (await api.request('POST', '/api/auth/2fa/setup', { token: account.token })).json
      .secret as string;
    const code = async () => {
      api.clock.now += 30_000;
      return generate({ secret, epoch: Math.floor(api.clock.now / 1000) });
    };
    const enabled = await api.request('POST', '/api/auth/2fa/enable', {
      token: account.token,
      body: { password: account.password, code: await code() },
    });
    expect(enabled.status).toBe(200);
    return { ...account, code, codes: enabled.json.codes as string[] };
  }

  const signIn = (email: string, password: string, totp?: string) =>
    api.request('POST', '/api/auth/login', { body: { email, password, ...(totp ? { totp } : {}) } });

  it('shows ten distinct codes once when 2FA is turned on, and stores only their hashes', async () => {
    const { codes, id, token } = await withTwoFactor();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    expect((await api.request('GET', '/api/auth/2fa/recovery-codes', { token })).json).toEqual({ left: 10 });
    const stored = await getDb().query<{ code_hash: string }>(
      'SELECT code_hash FROM user_recovery_codes WHERE user_id = $1',
      [id],
    );
    expect(stored.rows).toHaveLength(10);
    const hashes = stored.rows.map((row) => row.code_hash).join(' ');
    for (const code of codes) {
      expect(hashes).not.toContain(code);
      expect(hashes).not.toContain(code.replace(/-/g, ''));
    }
  });

  it('signs in once with a recovery code in place of the TOTP code; the second use is refused', async () => {
    const { email, password, codes, token } = await withTwoFactor();
    const [first = ''] = codes;
    // Typed as people type: upper case, spaces instead of dashes.
    const typed = first.toUpperCase().replace(/-/g, ' ');
    const once = await signIn(email, password, typed);
    expect(once.status).toBe(200);
    const twice = await signIn(email, password, first);
    expect(twice.status).toBe(401);
    expect(twice.json.error.code).toBe('totp-invalid');
    expect((await api.request('GET', '/api/auth/2fa/recovery-codes', { token })).json).toEqual({ left: 9 });
    const wrong = await signIn(email, password, 'aaaa-bbbb-cccc-dddd');
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.code).toBe('totp-invalid');
  });

  it('regenerates the codes with the password and a current TOTP code; the old ones stop working', async () => {
    const { email, password, codes, token, code } = await withTwoFactor();
    const noCode = await api.request('POST', '/api/auth/2fa/recovery-codes', {
      token,
      body: { password, code: '000000' },
    });
    expect(noCode.status).toBe(403);
    expect(noCode.json.error.code).toBe('totp-invalid');
    const wrongPassword = await api.request('POST', '/api/auth/2fa/recovery-codes', {
      token,
      body: { password: 'not the password', code: await code() },
    });
    expect(wrongPassword.status).toBe(403);
    expect(wrongPassword.json.error.code).toBe('wrong-password');
    const fresh = await api.request('POST', '/api/auth/2fa/recovery-codes', {
      token,
      body: { password, code: await code() },
    });
    expect(fresh.status).toBe(200);
    const next = fresh.json.codes as string[];
    expect(next).toHaveLength(10);
    expect(next.some((c) => codes.includes(c))).toBe(false);
    expect((await signIn(email, password, codes[0])).status).toBe(401);
    expect((await signIn(email, password, next[0])).status).toBe(200);
  });

  it('forgets the codes when 2FA is turned off, and refuses to make codes without 2FA', async () => {
    const { email, password, codes, token, code } = await withTwoFactor();
    const off = await api.request('POST', '/api/auth/2fa/disable', {
      token,
      body: { password, code: await code() },
    });
    expect(off.status).toBe(204);
    expect((await api.request('GET', '/api/auth/2fa/recovery-codes', { token })).json).toEqual({ left: 0 });
    const none = await api.request('POST', '/api/auth/2fa/recovery-codes', {
      token,
      body: { password, code: '123456' },
    });
    expect(none.status).toBe(409);
    expect((await signIn(email, password)).status).toBe(200);
    const stale = await getDb().query(
      'SELECT 1 FROM user_recovery_codes uc JOIN users u ON u.id = uc.user_id WHERE u.email = $1',
      [email],
    );
    expect(stale.rows).toHaveLength(0);
    expect(codes).toHaveLength(10);
  });
});
