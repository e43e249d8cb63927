/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests read JSON bodies field by field */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeEachDatabase } from '../../test/support/db.js';
import { startSmtpInbox, type SmtpInbox } from '../../test/support/smtp-inbox.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';

vi.setConfig({ testTimeout: 60_000 });

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';

describeEachDatabase('password reset by email and email alerts on a pool that sends email', (getDb) => {
  let api: TestApi;
  let smtp: SmtpInbox;
  let count = 0;
  beforeAll(async () => {
    smtp = await startSmtpInbox();
    api = await startTestApi(getDb(), {
      config: {
        smtp: { url: smtp.url, from: 'Manjam <pool@pool.test>' },
        operator: { contact: 'help@pool.test' },
      },
    });
  });
  afterAll(async () => {
    await api.close();
    await smtp.close();
  });

  /** The newest mail to `to` with `subject`, waiting for the background send (a real SMTP hand-off). */
  async function mailTo(to: string, subject: string): Promise<string> {
    for (let i = 0; i < 200; i++) {
      const found = smtp.inbox.filter((m) => m.to === to && m.mail.subject === subject).at(-1);
      if (found) return found.mail.text ?? '';
      await sleep(25);
    }
    throw new Error(`no mail "${subject}" to ${to}`);
  }

  /** A confirmed, signed-in account. */
  async function account() {
    count += 1;
    const username = `resetter${count}`;
    const email = `${username}@example.com`;
    const reg = await api.request('POST', '/api/auth/register', {
      body: { username, email, password: PASSWORD },
    });
    expect(reg.status).toBe(202);
    const token = /#token=([\w-]+)/.exec(await mailTo(email, 'Confirm your Manjam account'))?.[1] ?? '';
    expect((await api.request('POST', '/api/auth/confirm-email', { body: { token } })).status).toBe(204);
    const login = await api.request('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    return { username, email, session: login.json.token as string };
  }

  async function resetLink(email: string): Promise<string> {
    expect((await api.request('POST', '/api/auth/password-reset', { body: { email } })).status).toBe(204);
    const text = await mailTo(email, 'Reset your Manjam password');
    expect(text).toContain('https://pool.test/forgot-password#reset=');
    return /#reset=([\w-]+)/.exec(text)?.[1] ?? '';
  }

  it('says the pool sends email and names the operator contact', async () => {
    const help = await api.request('GET', '/api/auth/help');
    expect(help.status).toBe(200);
    expect(help.json).toEqual({ email: true, contact: 'help@pool.test' });
  });

  it('mails a link that sets a new password once, signs every session out and tells the address', async () => {
    const { email, session, username } = await account();
    const token = await resetLink(email);
    expect(token.length).toBeGreaterThanOrEqual(20);
    const done = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token, newPassword: NEW_PASSWORD },
    });
    expect(done.status).toBe(204);
    expect((await api.request('GET', '/api/me', { token: session })).status).toBe(401);
    const old = await api.request('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(old.status).toBe(401);
    const fresh = await api.request('POST', '/api/auth/login', { body: { email, password: NEW_PASSWORD } });
    expect(fresh.status).toBe(200);
    expect(fresh.json.user.username).toBe(username);
    const again = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token, newPassword: 'yet another passphrase' },
    });
    expect(again.status).toBe(400);
    expect(again.json.error).toMatchObject({
      code: 'reset-link-invalid',
      message: 'This password reset link is not valid any more. Ask for a new one.',
    });
    expect(await mailTo(email, 'Your Manjam password was changed')).toContain(username);
  });

  it('answers an email without an account exactly as one with, and mails nobody', async () => {
    const { email } = await account();
    const known = await api.request('POST', '/api/auth/password-reset', { body: { email } });
    const unknown = await api.request('POST', '/api/auth/password-reset', {
      body: { email: 'nobody-here@example.com' },
    });
    expect([known.status, known.text]).toEqual([unknown.status, unknown.text]);
    await mailTo(email, 'Reset your Manjam password');
    expect(smtp.inbox.some((m) => m.to === 'nobody-here@example.com')).toBe(false);
  });

  it('refuses a link once it has expired, and a short password, in Arabic too', async () => {
    const { email } = await account();
    const token = await resetLink(email);
    const short = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token, newPassword: 'short' },
      headers: { 'accept-language': 'ar' },
    });
    expect(short.status).toBe(400);
    expect(short.json.error.fields.newPassword).toBe('يجب أن تتكون كلمة المرور من 8 أحرف على الأقل');
    api.clock.now += 61 * 60_000;
    const late = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token, newPassword: NEW_PASSWORD },
      headers: { 'accept-language': 'ar' },
    });
    expect(late.status).toBe(400);
    expect(late.json.error).toMatchObject({
      code: 'reset-link-invalid',
      message: 'رابط إعادة تعيين كلمة المرور هذا لم يعد صالحًا. اطلب رابطًا جديدًا.',
    });
    const login = await api.request('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
  });

  it('turns email alerts on and says they are available', async () => {
    const { session } = await account();
    const on = await api.request('PUT', '/api/settings', { token: session, body: { emailAlerts: true } });
    expect(on.status).toBe(200);
    expect(on.json).toMatchObject({ emailAlerts: true, emailAlertsAvailable: true });
  });
});

describeEachDatabase('a pool that sends no email', (getDb) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(getDb(), { config: { operator: { contact: 'https://t.me/manjam_pool' } } });
  });
  afterAll(async () => {
    await api.close();
  });

  it('names the operator contact and says it sends no email', async () => {
    const help = await api.request('GET', '/api/auth/help');
    expect(help.json).toEqual({ email: false, contact: 'https://t.me/manjam_pool' });
  });

  it('refuses a password reset with a reason instead of pretending to send a link', async () => {
    const res = await api.request('POST', '/api/auth/password-reset', {
      body: { email: 'someone@example.com' },
    });
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({
      code: 'email-not-configured',
      message: 'This pool sends no email, so a password cannot be reset by email. Contact the pool operator.',
    });
  });

  describe('email alerts', () => {
    it('refuses to turn them on, says why in the caller language, and reads them as off and unavailable', async () => {
      const { token } = await api.signUp();
      const on = await api.request('PUT', '/api/settings', {
        token,
        body: { emailAlerts: true },
        headers: { 'accept-language': 'ar' },
      });
      expect(on.status).toBe(409);
      expect(on.json.error.code).toBe('email-not-configured');
      expect(on.json.error.message).toContain('SMTP');
      const settings = await api.request('GET', '/api/settings', { token });
      expect(settings.json).toMatchObject({ emailAlerts: false, emailAlertsAvailable: false });
      const off = await api.request('PUT', '/api/settings', {
        token,
        body: { emailAlerts: false, darkMode: true },
      });
      expect(off.status).toBe(200);
    });
  });
});
