/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests read JSON bodies field by field */
import { generate } from 'otplib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type ApiResponse, type TestApi } from '../../test/support/http.js';
import { payoutOf } from '../../test/support/payout-settings.js';

const MAX_FAILED = 5;
const PAYOUT = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';
type Account = Awaited<ReturnType<TestApi['signUp']>>;

describeEachDatabase('sign-in throttle: parallel guesses cannot outrun the count', (getDb) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(getDb(), {
      config: {
        auth: {
          secret: 'test-secret-test-secret-test-secret-0123',
          // A first backoff longer than the 30 s TOTP step the tests move the clock by.
          throttle: {
            perAddress: MAX_FAILED,
            perAccount: 2 * MAX_FAILED,
            backoffSeconds: 60,
            backoffMaxMinutes: 15,
          },
        },
        // Behind a proxy: each X-Forwarded-For is another client address.
        http: { host: '127.0.0.1', port: 0, webDist: '', trustProxy: true },
      },
    });
  });
  afterAll(() => api.close());

  /** An account with 2FA on; `code()` gives the code of the next 30-second step (each code is usable once). */
  async function withTotp(): Promise<
    Account & { code: () => Promise<string>; wrongCodes: (n: number) => Promise<string[]> }
  > {
    const account = await api.signUp();
    const secret = (await api.request('POST', '/api/auth/2fa/setup', { token: account.token })).json
      .secret as string;
    const codeAt = (ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });
    expect(
      (
        await api.request('POST', '/api/auth/2fa/enable', {
          token: account.token,
          body: { password: account.password, code: await codeAt(api.clock.now) },
        })
      ).status,
    ).toBe(200);
    return {
      ...account,
      code: async () => {
        api.clock.now += 30_000;
        return codeAt(api.clock.now);
      },
      // Codes that are valid in no step of the drift window around now or the next step.
      wrongCodes: async (n) => {
        const valid = new Set(
          await Promise.all([-30_000, 0, 30_000, 60_000].map((d) => codeAt(api.clock.now + d))),
        );
        const codes: string[] = [];
        for (let i = 0; codes.length < n; i++)
          if (!valid.has(String(i).padStart(6, '0'))) codes.push(String(i).padStart(6, '0'));
        return codes;
      },
    };
  }

  let addressCount = 0;
  /** A client address of its own for one test (X-Forwarded-For). */
  const newAddress = () => ({ 'x-forwarded-for': `198.18.0.${++addressCount}` });
  const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status);
  /** Of `responses` to wrong guesses: at most MAX_FAILED checked (answered wrong), every other one 429. */
  function expectThrottledAfterLimit(responses: ApiResponse[], wrongStatus: number): void {
    const wrong = statuses(responses).filter((s) => s === wrongStatus).length;
    expect(wrong).toBeLessThanOrEqual(MAX_FAILED);
    expect(statuses(responses).filter((s) => s !== wrongStatus && s !== 429)).toEqual([]);
    expect(statuses(responses).filter((s) => s === 429).length).toBe(responses.length - wrong);
  }

  it('checks at most the limit of 30 parallel wrong passwords from one address, then refuses the right one there until the backoff passes, but not elsewhere', async () => {
    const { email, password } = await api.signUp();
    const stranger = newAddress();
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api.request('POST', '/api/auth/login', {
          body: { email, password: `wrong-${i}` },
          headers: stranger,
        }),
      ),
    );
    expectThrottledAfterLimit(guesses, 401);
    const right = await api.request('POST', '/api/auth/login', {
      body: { email, password },
      headers: stranger,
    });
    expect(right.status).toBe(429);
    expect(right.json.error.code).toBe('too-many-attempts');
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner, elsewhere, is not held up by the stranger's guesses.
    expect(
      (await api.request('POST', '/api/auth/login', { body: { email, password }, headers: newAddress() }))
        .status,
    ).toBe(200);
    api.clock.now += 15 * 60_000 + 1_000;
    expect(
      (await api.request('POST', '/api/auth/login', { body: { email, password }, headers: stranger })).status,
    ).toBe(200);
  });

  it('counts sign-ins that stop at the TOTP prompt, so knowing the password does not reset the count between code guesses', async () => {
    const account = await withTotp();
    const [first, second, third] = await account.wrongCodes(3);
    const where = newAddress();
    const signIn = async (totp?: string) =>
      api.request('POST', '/api/auth/login', {
        body: { email: account.email, password: account.password, ...(totp ? { totp } : {}) },
        headers: where,
      });
    for (const totp of [first, second]) {
      expect((await signIn()).json.error.code).toBe('totp-required');
      expect((await signIn(totp)).json.error.code).toBe('totp-invalid');
    }
    // Three wrong codes only, but the fifth attempt: the last one checked; then even a valid code waits.
    expect((await signIn(third)).json.error.code).toBe('totp-invalid');
    expect((await signIn(await account.code())).status).toBe(429);
  });

  // Each TOTP-guarded action: its request for a code, and what must still hold after the refusals.
  const actions: {
    name: string;
    send: (a: Account, code: string, headers: Record<string, string>) => Promise<ApiResponse>;
    unchanged: (a: Account) => Promise<void>;
  }[] = [
    {
      name: 'sign-in',
      send: (a, totp, headers) =>
        api.request('POST', '/api/auth/login', {
          body: { email: a.email, password: a.password, totp },
          headers,
        }),
      unchanged: async () => {},
    },
    {
      name: 'turning 2FA off',
      send: (a, code) =>
        api.request('POST', '/api/auth/2fa/disable', {
          token: a.token,
          body: { password: a.password, code },
        }),
      unchanged: async (a) =>
        expect((await api.request('GET', '/api/settings', { token: a.token })).json.twoFactorAuth).toBe(true),
    },
    {
      name: 'the payout address',
      send: (a, totp) =>
        api.request('PUT', '/api/settings/payout-address', {
          token: a.token,
          body: { address: PAYOUT, coin: 'BTC', password: a.password, totp },
        }),
      unchanged: async (a) =>
        expect(
          payoutOf((await api.request('GET', '/api/settings', { token: a.token })).json, 'BTC').address,
        ).toBeNull(),
    },
    {
      name: 'the email',
      send: (a, totp) =>
        api.request('POST', '/api/auth/email', {
          token: a.token,
          body: { password: a.password, newEmail: `moved.${a.email}`, totp },
        }),
      unchanged: async (a) =>
        expect((await api.request('GET', '/api/me', { token: a.token })).json.email).toBe(a.email),
    },
    {
      name: 'the password',
      send: (a, totp) =>
        api.request('POST', '/api/auth/password', {
          token: a.token,
          body: { currentPassword: a.password, newPassword: 'taken over password', totp },
        }),
      unchanged: async (a) => {
        api.clock.now += 16 * 60_000;
        expect(
          (
            await api.request('POST', '/api/auth/login', {
              body: { email: a.email, password: 'taken over password' },
              headers: newAddress(),
            })
          ).status,
        ).toBe(401);
      },
    },
  ];

  for (const action of actions) {
    it(`checks at most the limit of 30 parallel wrong TOTP codes on ${action.name}, then refuses a valid code, while the owner still signs in elsewhere`, async () => {
      const account = await withTotp();
      const where = newAddress();
      const codes = await account.wrongCodes(30);
      const guesses = await Promise.all(codes.map((code) => action.send(account, code, where)));
      expectThrottledAfterLimit(guesses, action.name === 'sign-in' ? 401 : 403);
      const valid = await action.send(account, await account.code(), where);
      expect(valid.status).toBe(429);
      expect(valid.json.error.code).toBe('too-many-attempts');
      // No lock on the account: its owner signs in from another address.
      expect(
        (
          await api.request('POST', '/api/auth/login', {
            body: { email: account.email, password: account.password, totp: await account.code() },
            headers: newAddress(),
          })
        ).status,
      ).toBe(200);
      await action.unchanged(account);
    });
  }

  it('refuses all but the limit of 30 parallel wrong codes when turning 2FA on', async () => {
    const account = await api.signUp();
    await api.request('POST', '/api/auth/2fa/setup', { token: account.token });
    const guesses = await Promise.all(
      Array.from({ length: 30 }, () =>
        api.request('POST', '/api/auth/2fa/enable', {
          token: account.token,
          body: { password: account.password, code: '000000' },
        }),
      ),
    );
    expect(statuses(guesses).filter((s) => s === 429).length).toBeGreaterThanOrEqual(30 - MAX_FAILED);
    // The session's own guesses do not keep the owner from signing in.
    expect(
      (
        await api.request('POST', '/api/auth/login', {
          body: { email: account.email, password: account.password },
          headers: newAddress(),
        })
      ).status,
    ).toBe(200);
  });

  it('asks for the password to turn 2FA on or off, and for the code too to change the email while 2FA is on', async () => {
    const plain = await api.signUp();
    await api.request('POST', '/api/auth/2fa/setup', { token: plain.token });
    const stolenSession = await api.request('POST', '/api/auth/2fa/enable', {
      token: plain.token,
      body: { password: 'guessed password', code: '123456' },
    });
    expect(stolenSession.status).toBe(403);
    expect(stolenSession.json.error).toMatchObject({
      code: 'wrong-password',
      fields: { password: 'The current password is not correct' },
    });
    expect((await api.request('GET', '/api/settings', { token: plain.token })).json.twoFactorAuth).toBe(
      false,
    );

    const account = await withTotp();
    const noCode = await api.request('POST', '/api/auth/email', {
      token: account.token,
      body: { password: account.password, newEmail: `new.${account.email}` },
    });
    expect(noCode.status).toBe(403);
    expect(noCode.json.error).toMatchObject({
      code: 'totp-required',
      fields: { totp: 'Enter the code from your authenticator app' },
    });
    const noPassword = await api.request('PUT', '/api/settings/payout-address', {
      token: account.token,
      body: { address: PAYOUT, coin: 'BTC', totp: await account.code() },
    });
    expect(noPassword.status).toBe(400);
    const ok = await api.request('POST', '/api/auth/email', {
      token: account.token,
      body: { password: account.password, newEmail: `new.${account.email}`, totp: await account.code() },
    });
    expect(ok.status).toBe(202);
    const off = await api.request('POST', '/api/auth/2fa/disable', {
      token: account.token,
      body: { password: 'not it at all', code: await account.code() },
    });
    expect(off.status).toBe(403);
    expect((await api.request('GET', '/api/settings', { token: account.token })).json.twoFactorAuth).toBe(
      true,
    );
  });
});
