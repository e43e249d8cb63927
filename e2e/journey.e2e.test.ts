// A miner's whole journey through the web app, in English and in Arabic, against the real pool:
// register, log in, mine over Stratum, see the worker, test the connection, edit and delete a
// miner, export revenue, keep settings across a reload, log out.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StratumTestClient } from '../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { api, registerAndLogin } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
import { startTestPool, type TestPool } from './support/pool.js';

let pool: TestPool;
let browser: Browser;

beforeAll(async () => {
  pool = await startTestPool();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await pool?.stop();
});

async function mineShares(login: string, count: number): Promise<void> {
  const client = await StratumTestClient.connect(pool.stratumPort, { host: '127.0.0.1' });
  try {
    await client.subscribe();
    const auth = await client.authorize(login);
    expect(auth.result).toBe(true);
    await client.waitForJob();
    let accepted = 0;
    while (accepted < count) {
      // Like a real miner: always work on the newest job; a share on a job the chain moved past
      // comes back stale (code 21) and is simply mined again on the new job.
      const job = client.job ?? (await client.waitForJob());
      const reply = await client.submit(login, client.findShare(job, 'sha256d'));
      if (reply.error?.[0] === 21) continue;
      expect(reply.error).toBeNull();
      accepted += 1;
    }
  } finally {
    await client.close();
  }
}

/** Reloads until `probe` resolves: the API answers from what the share writer has flushed. */
async function eventually(page: Page, probe: () => Promise<unknown>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await probe();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await page.reload();
    }
  }
}

describe.each<Language>(['en', 'ar'])('a miner in %s', (language) => {
  const t = translator(language);
  const username = `j${language}${Date.now().toString(36)}`;
  const email = `${username}@example.com`;
  const password = 'a long enough password';

  // The two tests run side by side.
  it.concurrent(
    'registers, logs in, mines, and manages miners, revenue and settings, then logs out',
    async () => {
      const context = await newContext(browser, pool.baseUrl, { language });
      const page = await context.newPage();

      const expectLanguage = async (): Promise<void> => {
        expect(await page.getAttribute('html', 'dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
        expect(await page.getAttribute('html', 'lang')).toBe(language);
      };
      await page.goto('/register');
      await expectLanguage();
      await page.getByRole('button', { name: t('register.submit') }).click();
      await page.getByText(t('validation.usernameRequired')).waitFor();
      await page.getByLabel(t('register.username')).fill(username);
      await page.getByLabel(t('register.email')).fill(email);
      await page.getByLabel(t('register.password'), { exact: true }).fill(password);
      await page.getByLabel(t('register.confirmPassword')).fill(password);
      await page.getByRole('button', { name: t('register.submit') }).click();
      await page.getByText(t('register.success')).waitFor();
      await page.waitForURL('**/login');
      // The register page stays on screen until the login page's code has loaded.
      await page.getByRole('heading', { name: t('login.title') }).waitFor();

      await page.getByLabel(t('login.email')).fill(email);
      await page.getByLabel(t('login.password'), { exact: true }).fill(password);
      await page.getByRole('button', { name: t('login.submit') }).click();
      await page.waitForURL('**/dashboard');

      // A test miner mines real SHA-256d shares on the regtest chain as <username>.rig1.
      await mineShares(`${username}.rig1`, 5);
      await page.goto('/workers');
      await eventually(page, () =>
        page.getByRole('cell', { name: /rig1/ }).first().waitFor({ timeout: 3_000 }),
      );
      await screenshot(page, `journey-${language}-workers`);

      // The dashboard counts rig1 among the active miners (the cards average over 24 hours).
      await page.goto('/dashboard');
      const activeMiners = page.getByRole('region', { name: t('dashboard.cards.activeMiners'), exact: true });
      await eventually(page, () => activeMiners.getByText('1', { exact: true }).waitFor({ timeout: 3_000 }));
      // Signing in keeps the language the account was registered in.
      await expectLanguage();

      // Test Connection asks the pool: it succeeds for rig1, which really submitted shares.
      await page
        .getByRole('button', { name: new RegExp(t('dashboard.devices.asic.title')) })
        .first()
        .click();
      const guide = page.getByRole('dialog');
      await guide.getByLabel(t('setupGuide.step1.label')).fill('rig1');
      await guide
        .getByRole('button', { name: t('setupGuide.continue') })
        .first()
        .click();
      for (let step = 2; step <= 3; step++)
        await guide
          .getByRole('button', { name: t('setupGuide.continue') })
          .first()
          .click();
      await guide.getByRole('button', { name: t('setupGuide.step4.test') }).click();
      await guide.getByText(t('setupGuide.step4.success')).waitFor({ timeout: 60_000 });
      await guide.getByRole('button', { name: t('setupGuide.step4.connected') }).waitFor();
      await page.keyboard.press('Escape');

      // Edit and delete a declared miner from the dashboard's miners table.
      const token = await page.evaluate(() => localStorage.getItem('token'));
      expect(token).toBeTruthy();
      await api(pool.baseUrl, '/api/miners', {
        token: token ?? '',
        body: { name: 'Garage S19', type: 'asic', algorithm: 'sha256', workerName: 'rig1' },
      });
      await page.reload();
      await page.getByRole('button', { name: t('miners.edit', { name: 'Garage S19' }) }).click();
      const edit = page.getByRole('dialog');
      await edit.getByLabel(t('miners.name')).fill('Roof S21');
      await edit.getByRole('button', { name: t('miners.saveChanges') }).click();
      await page.getByText(t('miners.updated')).waitFor();
      await page.getByRole('button', { name: t('miners.delete', { name: 'Roof S21' }) }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: t('miners.deleteButton') })
        .click();
      await page.getByText(t('miners.deleted')).waitFor();
      const left = await api<{ miners: unknown[] }>(pool.baseUrl, '/api/miners', { token: token ?? '' });
      expect(left.miners).toEqual([]);

      // Revenue: Export Data downloads a CSV from the server.
      await page.goto('/revenue');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: t('revenue.export') }).click(),
      ]);
      const csv = readFileSync((await download.path()) ?? '', 'utf8');
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      expect(csv.split('\n')[0]).toContain(',');

      // Settings persist across a reload.
      await page.goto('/settings');
      const showBalance = page.getByLabel(t('settings.showBalance'));
      await showBalance.waitFor();
      const before = await showBalance.isChecked();
      await showBalance.click();
      await page.getByRole('button', { name: t('settings.save') }).click();
      await page.getByText(t('settings.saved')).waitFor();
      await page.reload();
      await page.getByLabel(t('settings.showBalance')).waitFor();
      expect(await page.getByLabel(t('settings.showBalance')).isChecked()).toBe(!before);
      await expectLanguage();
      await screenshot(page, `journey-${language}-settings`);

      // Logout clears the session and goes home.
      // The top bar's Logout is a link to /logout styled as a button.
      const logout = { name: t('nav.logout'), exact: true };
      await page.getByRole('link', logout).or(page.getByRole('button', logout)).first().click();
      await page.waitForURL((url) => url.pathname === '/');
      expect(
        await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')]),
      ).toEqual([null, null]);
      await context.close();
    },
  );

  it.concurrent('fails the connection test for a worker that never connected', async () => {
    const login = await registerAndLogin(pool.baseUrl, `ghost${language}`, language);
    const context = await newContext(browser, pool.baseUrl, {
      language,
      session: { token: login.token, user: login.user },
    });
    const page = await context.newPage();
    // The page's clock is Playwright's: the test's 60 s deadline is reached by moving it on below.
    await page.clock.install();
    await page.goto('/dashboard');
    await page
      .getByRole('button', { name: new RegExp(t('dashboard.devices.asic.title')) })
      .first()
      .click();
    const guide = page.getByRole('dialog');
    await guide.getByLabel(t('setupGuide.step1.label')).fill('ghost');
    await guide
      .getByRole('button', { name: t('setupGuide.continue') })
      .first()
      .click();
    for (let step = 2; step <= 3; step++)
      await guide
        .getByRole('button', { name: t('setupGuide.continue') })
        .first()
        .click();
    await guide.getByRole('button', { name: t('setupGuide.step4.test') }).click();
    await guide.getByRole('progressbar').or(guide.locator('progress')).first().waitFor();
    // The test has started asking the pool (every 2 s): the rest of its 60 s deadline passes on the
    // page's clock, and the pool's answer after it is read past the deadline.
    await page.clock.fastForward(60_000);
    await guide.getByText(t('setupGuide.step4.failed')).waitFor({ timeout: 90_000 });
    await context.close();
  });
});
