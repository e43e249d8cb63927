/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests read JSON bodies field by field */
import { generate } from 'otplib';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

vi.setConfig({ testTimeout: 60_000 });

describeEachDatabase('the 2FA state a signed-in account reads', (getDb) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(getDb());
  });
  afterAll(() => api.close());

  const twoFactorOf = async (token: string): Promise<boolean> =>
    (await api.request('GET', '/api/settings', { token })).json.twoFactorAuth as boolean;

  it('is on right after 2FA is turned on and off right after it is turned off, with reads of the settings running meanwhile', async () => {
    const { token, password } = await api.signUp();
    const secret = (await api.request('POST', '/api/auth/2fa/setup', { token })).json.secret as string;
    const code = () => generate({ secret, epoch: Math.floor(api.clock.now / 1000) });
    // The session's cached read is a few seconds old: reads answer from it and refresh it behind.
    api.clock.now += 5_000;
    const during = Array.from({ length: 4 }, () => twoFactorOf(token));
    const enabled = await api.request('POST', '/api/auth/2fa/enable', {
      token,
      body: { password, code: await code() },
    });
    await Promise.all(during);
    expect(enabled.status).toBe(200);
    expect(await twoFactorOf(token)).toBe(true);

    api.clock.now += 30_000;
    const duringOff = Array.from({ length: 4 }, () => twoFactorOf(token));
    const disabled = await api.request('POST', '/api/auth/2fa/disable', {
      token,
      body: { password, code: await code() },
    });
    await Promise.all(duringOff);
    expect(disabled.status).toBe(204);
    expect(await twoFactorOf(token)).toBe(false);
  });
});
