/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- tests read JSON bodies field by field */
import { generate } from 'otplib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { payoutOf } from '../../test/support/payout-settings.js';

describeEachDatabase('accounts and sign-in over HTTP', (getDb) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(getDb(), {
      config: {
        auth: { secret: 'test-secret-test-secret-test-secret-0123', throttle: { perAddress: 4 } },
        // Behind a proxy: the client address is the X-Forwarded-For one, so a test can be a stranger elsewhere.
        http: { host: '127.0.0.1', port: 0, webDist: '', trustProxy: true },
      },
    });
  });
  afterAll(() => api.close());

  it('registers an account (no SMTP: "sign in next") and signing in shows the user, without the password', async () => {
    const res = await api.request('POST', '/api/auth/register', {
      body: {
        username: 'sara',
        email: 'sara@example.com',
        password: 'longenough1',
        preferredCoin: 'LTC',
        isAdmin: true,
      },
    });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ next: 'sign-in' });
    const login = await api.request('POST', '/api/auth/login', {
      body: { email: 'sara@example.com', password: 'longenough1' },
    });
    expect(login.status).toBe(200);
    expect(login.json.user).toMatchObject({
      username: 'sara',
      email: 'sara@example.com',
      preferredCoin: 'LTC',
      walletAddress: null,
      twoFactorEnabled: false,
      activeWorkers: 0,
      hashrates: [],
      balance: '0',
    });
    expect(login.text).not.toMatch(/password|isAdmin|argon/i);
  });

  it('answers the seed messages per field in English and in Arabic', async () => {
    const en = await api.request('POST', '/api/auth/register', {
      body: { username: 'ab', email: 'x', password: 'short' },
    });
    expect(en.status).toBe(400);
    expect(en.json.error).toEqual({
      code: 'validation-failed',
      message: 'Some fields are not valid',
      fields: {
        username: 'Username must be at least 3 characters',
        email: 'Please enter a valid email',
        password: 'Password must be at least 8 characters',
      },
    });
    const ar = await api.request('POST', '/api/auth/register', {
      body: {},
      headers: { 'accept-language': 'ar-SA,ar;q=0.9' },
    });
    expect(ar.status).toBe(400);
    expect(ar.json.error.fields).toMatchObject({
      username: 'اسم المستخدم مطلوب',
      email: 'البريد الإلكتروني مطلوب',
      password: 'كلمة المرور مطلوبة',
    });
  });

  it('checks the wallet address for the chosen coin, BTC and LTC alike', async () => {
    const btc = await api.request('POST', '/api/auth/register', {
      body: {
        username: 'walletbtc',
        email: 'wb@example.com',
        password: 'longenough1',
        preferredCoin: 'BTC',
        walletAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyX',
      },
    });
    expect(btc.status).toBe(400);
    expect(btc.json.error.fields).toEqual({ walletAddress: 'Please enter a valid BTC address' });
    const ltc = await api.request('POST', '/api/auth/register', {
      body: {
        username: 'walletltc',
        email: 'wl@example.com',
        password: 'longenough1',
        preferredCoin: 'LTC',
        walletAddress: 'ltc1qnotanaddress',
      },
    });
    expect(ltc.json.error.fields).toEqual({ walletAddress: 'Please enter a valid LTC address' });
    const good = await api.request('POST', '/api/auth/register', {
      body: {
        username: 'walletok',
        email: 'wok@example.com',
        password: 'longenough1',
        preferredCoin: 'BTC',
        walletAddress: 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn',
      },
    });
    expect(good.status).toBe(202);
    const login = await api.request('POST', '/api/auth/login', {
      body: { email: 'wok@example.com', password: 'longenough1' },
    });
    expect(login.json.user.walletAddress).toBe('rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn');
  });

  it('answers 409 for a public username whatever the letter case, but a taken email exactly like a free one', async () => {
    await api.request('POST', '/api/auth/register', {
      body: { username: 'taken', email: 'taken@example.com', password: 'longenough1' },
    });
    const user = await api.request('POST', '/api/auth/register', {
      body: { username: 'TAKEN', email: 'other@example.com', password: 'longenough1' },
    });
    expect(user.status).toBe(409);
    expect(user.json.error.code).toBe('username-taken');
    const email = await api.request('POST', '/api/auth/register', {
      body: { username: 'fresh', email: 'Taken@Example.com', password: 'longenough1' },
    });
    const free = await api.request('POST', '/api/auth/register', {
      body: { username: 'fresh2', email: 'free@example.com', password: 'longenough1' },
    });
    expect([email.status, email.text]).toEqual([free.status, free.text]);
    // The owner's account is untouched: the stranger's password does not sign in to it.
    const stranger = await api.request('POST', '/api/auth/login', {
      body: { email: 'taken@example.com', password: 'longenough1-not' },
    });
    expect(stranger.status).toBe(401);
  });

  it('signs in, reads /api/me with the token, and logout revokes it', async () => {
    const { token, username } = await api.signUp();
    const me = await api.request('GET', '/api/me', { token });
    expect(me.status).toBe(200);
    expect(me.json.username).toBe(username);
    expect((await api.request('POST', '/api/auth/logout', { token })).status).toBe(204);
    const after = await api.request('GET', '/api/me', { token });
    expect(after.status).toBe(401);
    expect(after.json.error.code).toBe('unauthorized');
  });

  it('refuses wrong credentials with the seed message, and unknown emails the same way', async () => {
    const { email } = await api.signUp();
    const wrong = await api.request('POST', '/api/auth/login', {
      body: { email, password: 'not the password' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toEqual({
      code: 'invalid-credentials',
      message: 'Login failed. Please check your credentials.',
    });
    const unknown = await api.request('POST', '/api/auth/login', {
      body: { email: 'nobody@example.com', password: 'whatever1' },
    });
    expect(unknown.json.error.code).toBe('invalid-credentials');
  });

  it('throttles the address after repeated failures with 429 and Retry-After, and lets the right password in once the backoff is over', async () => {
    const { email, password } = await api.signUp();
    const from = { 'x-forwarded-for': '198.51.100.7' };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await api.request('POST', '/api/auth/login', {
            body: { email, password: 'wrong-password' },
            headers: from,
          })
        ).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const throttled = await api.request('POST', '/api/auth/login', {
      body: { email, password },
      headers: from,
    });
    expect(throttled.status).toBe(429);
    expect(throttled.json.error.code).toBe('too-many-attempts');
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    api.clock.now += 2_000;
    const later = await api.request('POST', '/api/auth/login', { body: { email, password }, headers: from });
    expect(later.status).toBe(200);
  });

  it('expires a session after the configured lifetime', async () => {
    const { token } = await api.signUp();
    expect((await api.request('GET', '/api/me', { token })).status).toBe(200);
    await api.request('PUT', '/api/settings', { token, body: { autoLogout: false } });
    api.clock.now += api.config.auth.sessionTtlHours * 3_600_000 + 1_000;
    expect((await api.request('GET', '/api/me', { token })).status).toBe(401);
  });

  it('answers from the cached session while re-checking it, and refuses a session revoked elsewhere on the next request', async () => {
    const { token, id } = await api.signUp();
    expect((await api.request('GET', '/api/me', { token })).status).toBe(200);
    // Another API process signs this session out (straight in the database: this process does not know).
    await getDb().query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1', [id]);
    api.clock.now += 2_000;
    // Answered from the cache (no wait on the database); the re-check runs behind it...
    expect((await api.request('GET', '/api/me', { token })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // ...and the next request is refused.
    expect((await api.request('GET', '/api/me', { token })).status).toBe(401);
  });

  it('waits for the database when the cached session is over 30 s old', async () => {
    const { token, id } = await api.signUp();
    expect((await api.request('GET', '/api/me', { token })).status).toBe(200);
    await getDb().query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1', [id]);
    api.clock.now += 31_000;
    expect((await api.request('GET', '/api/me', { token })).status).toBe(401);
  });

  it('ends an idle session after 30 minutes when Auto Logout is on, and says so with its own code', async () => {
    const { token } = await api.signUp();
    api.clock.now += 31 * 60_000;
    const ended = await api.request('GET', '/api/me', { token });
    expect(ended.status).toBe(401);
    expect(ended.json.error.code).toBe('session-idle');
    expect(ended.json.error.message).toBe(
      'You were logged out after 30 minutes of inactivity (Auto Logout). Please log in again.',
    );
    // The session is gone: the same token is refused as any unknown one from then on.
    const after = await api.request('GET', '/api/me', { token });
    expect(after.status).toBe(401);
    expect(after.json.error.code).toBe('unauthorized');
  });

  it('enrols TOTP with a QR code, then needs a real code to sign in and to change the payout address', async () => {
    const { token, email, password } = await api.signUp();
    const setup = await api.request('POST', '/api/auth/2fa/setup', { token });
    expect(setup.status).toBe(200);
    expect(setup.json.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Manjam:/);
    expect(setup.json.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    const secret = setup.json.secret as string;
    // Each code is accepted once: the next use waits for the authenticator's next code (30 s on).
    const code = async () => {
      api.clock.now += 30_000;
      return generate({ secret, epoch: Math.floor(api.clock.now / 1000) });
    };

    const bad = await api.request('POST', '/api/auth/2fa/enable', {
      token,
      body: { password, code: '000000' },
    });
    expect(bad.status).toBe(403);
    expect(bad.json.error.code).toBe('totp-invalid');
    const noPassword = await api.request('POST', '/api/auth/2fa/enable', {
      token,
      body: { code: await code() },
    });
    expect(noPassword.status).toBe(400);
    expect(noPassword.json.error.fields).toEqual({ password: 'Password is required' });
    expect(
      (await api.request('POST', '/api/auth/2fa/enable', { token, body: { password, code: await code() } }))
        .status,
    ).toBe(200); // with the recovery codes (recovery-codes.int.test.ts)
    expect((await api.request('GET', '/api/settings', { token })).json.twoFactorAuth).toBe(true);
    const again = await api.request('POST', '/api/auth/2fa/setup', { token });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('totp-already-enabled');

    const noCode = await api.request('POST', '/api/auth/login', { body: { email, password } });
    expect(noCode.status).toBe(401);
    expect(noCode.json.error.code).toBe('totp-required');
    const withCode = await api.request('POST', '/api/auth/login', {
      body: { email, password, totp: await code() },
    });
    expect(withCode.status).toBe(200);

    const address = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';
    const noTotp = await api.request('PUT', '/api/settings/payout-address', {
      token,
      body: { address, coin: 'BTC', password },
    });
    expect(noTotp.status).toBe(403);
    expect(noTotp.json.error.code).toBe('totp-required');
    const ok = await api.request('PUT', '/api/settings/payout-address', {
      token,
      body: { address, coin: 'BTC', password, totp: await code() },
    });
    expect(ok.status).toBe(200);
    expect(payoutOf(ok.json, 'BTC').address).toBe(address);

    expect(
      (await api.request('POST', '/api/auth/2fa/disable', { token, body: { password, code: await code() } }))
        .status,
    ).toBe(204);
    expect((await api.request('POST', '/api/auth/login', { body: { email, password } })).status).toBe(200);
  });

  it('accepts a TOTP code once: a replayed code, or an older one after it, is refused', async () => {
    const { token, email, password } = await api.signUp();
    const secret = (await api.request('POST', '/api/auth/2fa/setup', { token })).json.secret as string;
    const codeAt = (ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });
    const start = api.clock.now;
    expect(
      (
        await api.request('POST', '/api/auth/2fa/enable', {
          token,
          body: { password, code: await codeAt(start) },
        })
      ).status,
    ).toBe(200);

    api.clock.now = start + 30_000;
    const current = await codeAt(api.clock.now);
    const previous = await codeAt(api.clock.now - 30_000);
    expect(
      (await api.request('POST', '/api/auth/login', { body: { email, password, totp: current } })).status,
    ).toBe(200);
    // The same code seconds later (someone who saw it over the shoulder) is refused...
    api.clock.now += 5_000;
    const replay = await api.request('POST', '/api/auth/login', { body: { email, password, totp: current } });
    expect(replay.status).toBe(401);
    expect(replay.json.error.code).toBe('totp-invalid');
    // ...and so is the previous step's code, still inside the one-step drift allowance.
    const older = await api.request('PUT', '/api/settings/payout-address', {
      token,
      body: {
        address: 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn',
        coin: 'BTC',
        password,
        totp: previous,
      },
    });
    expect(older.status).toBe(403);
    expect(older.json.error.code).toBe('totp-invalid');
    // The next code works.
    api.clock.now = start + 60_000;
    expect(
      (
        await api.request('POST', '/api/auth/login', {
          body: { email, password, totp: await codeAt(api.clock.now) },
        })
      ).status,
    ).toBe(200);
  });

  it('stores the TOTP secret encrypted, never in clear', async () => {
    const { token, id } = await api.signUp();
    const setup = await api.request('POST', '/api/auth/2fa/setup', { token });
    const row = await getDb().query<{ totp_secret: string }>('SELECT totp_secret FROM users WHERE id = $1', [
      id,
    ]);
    expect(row.rows[0]?.totp_secret).toMatch(/^v1:/);
    expect(row.rows[0]?.totp_secret).not.toContain(setup.json.secret);
  });

  it('changes the password (old one stops working, other sessions end) and the email', async () => {
    const { token, email, password } = await api.signUp();
    const other = await api.request('POST', '/api/auth/login', { body: { email, password } });
    const wrong = await api.request('POST', '/api/auth/password', {
      token,
      body: { currentPassword: 'nope-nope', newPassword: 'brand new password' },
    });
    expect(wrong.status).toBe(403);
    expect(
      (
        await api.request('POST', '/api/auth/password', {
          token,
          body: { currentPassword: password, newPassword: 'brand new password' },
        })
      ).status,
    ).toBe(204);
    expect((await api.request('GET', '/api/me', { token: other.json.token })).status).toBe(401);
    expect((await api.request('GET', '/api/me', { token })).status).toBe(200);
    expect((await api.request('POST', '/api/auth/login', { body: { email, password } })).status).toBe(401);
    const newEmail = `new.${email}`;
    expect(
      (
        await api.request('POST', '/api/auth/email', {
          token,
          body: { password: 'brand new password', newEmail },
        })
      ).status,
    ).toBe(202);
    expect(
      (
        await api.request('POST', '/api/auth/login', {
          body: { email: newEmail, password: 'brand new password' },
        })
      ).status,
    ).toBe(200);
  });
});
