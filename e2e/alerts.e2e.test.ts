// Alert settings and 2FA recovery codes in the browser (issue 27, "Monitoring a miner expects"):
// Settings -> Notifications (thresholds, the webhook and its refusal of a private address),
// Settings -> Security (the recovery codes left, regenerate), and a worker's own alerts, in
// English and Arabic at 375 and 1280 px, none scrolling sideways. Screenshots go to e2e/screenshots/.
import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureWriter } from '../apps/server/test/support/db/fixtures.js';
import { api, registerAndLogin, waitForWorker, type Session } from './support/api.js';
import { launchBrowser, newContext, pageOverflow, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
import { startTestPool, type TestPool } from './support/pool.js';

const LANGUAGES: Language[] = ['en', 'ar'];
const WEBHOOK_REFUSED = {
  en: /^This webhook URL cannot be used/,
  ar: /^لا يمكن استخدام رابط الويب هوك هذا/,
};

let pool: TestPool;
let browser: Browser;
const accounts = new Map<Language, { session: Session; workerId: number }>();

beforeAll(async () => {
  pool = await startTestPool();
  browser = await launchBrowser();
  for (const language of LANGUAGES) {
    const session = await registerAndLogin(pool.baseUrl, `alerts${language}`, language);
    const { secret } = await api<{ secret: string }>(pool.baseUrl, '/api/auth/2fa/setup', {
      method: 'POST',
      token: session.token,
    });
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) });
    const enabled = await api<{ codes: string[] }>(pool.baseUrl, '/api/auth/2fa/enable', {
      token: session.token,
      body: { password: session.password, code },
    });
    expect(enabled.codes).toHaveLength(10);
    const fx = new FixtureWriter(pool.pool.db);
    const payeeId = await fx.payee('BTC', { userId: session.user.id });
    const workerId = await fx.worker(payeeId, 'rig1', { coin: 'BTC', lastShareAt: new Date() });
    await waitForWorker(pool.baseUrl, session.token, workerId);
    accounts.set(language, { session, workerId });
  }
});

afterAll(async () => {
  await browser?.close();
  await pool?.stop();
});

const fits = async (page: Page, width: number) => {
  const measured = await pageOverflow(page);
  expect(measured.culprits).toEqual([]);
  expect(measured.scrollWidth).toBeLessThanOrEqual(width);
};

describe.each(LANGUAGES)('alert settings and recovery codes [%s]', (language) => {
  const t = translator(language);

  for (const width of [375, 1280]) {
    it(`fits ${width} px: Notifications refuses a private webhook, Security counts the recovery codes, the worker page has its alerts`, async () => {
      const account = accounts.get(language);
      if (!account) throw new Error('no account');
      const context = await newContext(browser, pool.baseUrl, { language, width, session: account.session });
      try {
        const page = await context.newPage();
        await page.goto('/settings?tab=notifications');
        await page.getByText(t('alertSettings.accountTitle')).waitFor();
        await page.getByLabel(t('alertSettings.webhook.url')).fill('https://10.0.0.1/hook');
        await page.getByRole('button', { name: t('alertSettings.webhook.save') }).click();
        await page.getByText(WEBHOOK_REFUSED[language]).waitFor();
        await fits(page, width);
        await screenshot(page, `alerts-notifications-${language}-${width}`);

        await page.goto('/settings?tab=security');
        await page.getByRole('button', { name: t('recoveryCodes.regenerate') }).waitFor();
        await page.getByText(t('recoveryCodes.left', { count: 10 })).waitFor();
        await fits(page, width);
        await screenshot(page, `alerts-security-${language}-${width}`);

        await page.goto(`/workers/${account.workerId}`);
        await page.getByText(t('alertSettings.workerTitle')).waitFor();
        await page.getByRole('switch', { name: t('alertSettings.workerOn') }).waitFor();
        await fits(page, width);
        await screenshot(page, `alerts-worker-${language}-${width}`);
      } finally {
        await context.close();
      }
    });
  }
});
