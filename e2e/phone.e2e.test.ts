// Phones and the figures' settings: screenshots of the dashboard, workers, revenue and guide in
// both languages at 1280 and 375 px (with a mining worker and a declared miner, so that tables have
// rows) go to e2e/screenshots/, none scrolling sideways; Show Balance and Show Hashrate. (Every
// route at 375 px, and Mining Help on each, is checked in routes.e2e.test.ts.)
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerAndLogin, type Session } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { mineShares, miningAccount } from './support/miner.js';
import { translator } from './support/i18n.js';
import { slug } from './support/routes.js';
import { startTestPool, type TestPool } from './support/pool.js';

const LANGUAGES: Language[] = ['en', 'ar'];
const PHONE = 375;

let pool: TestPool;
let browser: Browser;
const sessions = new Map<Language, Session>();

const mine = (login: string, count: number): Promise<void> =>
  mineShares(pool.stratumPort, login, 'sha256d', count);

beforeAll(async () => {
  pool = await startTestPool();
  browser = await launchBrowser();
  for (const language of LANGUAGES) {
    const session = await miningAccount(pool, `phone${language}`, language);
    sessions.set(language, session);
  }
});

afterAll(async () => {
  await browser?.close();
  await pool?.stop();
});

describe('screenshots', () => {
  it.each(LANGUAGES)(
    'of the dashboard, workers, revenue and guide in %s at 1280 and 375 px',
    async (language) => {
      const session = sessions.get(language);
      if (!session) throw new Error('no session');
      const t = translator(language);
      for (const width of [1280, PHONE]) {
        const context = await newContext(browser, pool.baseUrl, {
          language,
          width,
          session: { token: session.token, user: session.user },
        });
        const page = await context.newPage();
        for (const route of ['/dashboard', '/workers', '/revenue']) {
          await page.goto(route);
          await page.locator('main h1').first().waitFor();
          await page.locator('main .spinner').first().waitFor({ state: 'detached' });
          await screenshot(page, `phone-${language}-${width}-${slug(route)}`);
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
            true,
          );
        }
        // The setup guide opens from the workers page ("Add Worker").
        await page.goto('/workers');
        await page.getByRole('button', { name: t('workers.addWorker') }).click();
        await page.getByRole('dialog').waitFor();
        await screenshot(page, `phone-${language}-${width}-guide`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        );
        await context.close();
      }
    },
  );
});

describe('settings and notifications in the browser', () => {
  it('hides balances with Show Balance and hashrates with Show Hashrate on the dashboard, sidebar and workers', async () => {
    const session = await registerAndLogin(pool.baseUrl, 'toggles', 'en');
    await mine(`${session.user.username}.rig1`, 2);
    const t = translator('en');
    const context = await newContext(browser, pool.baseUrl, {
      language: 'en',
      session: { token: session.token, user: session.user },
    });
    const page = await context.newPage();
    const balanceHidden = page.getByRole('img', { name: t('common.balanceHidden') });
    const hashrateHidden = page.getByRole('img', { name: t('common.hashrateHidden') });
    try {
      await page.goto('/dashboard');
      await page
        .getByRole('region', { name: t('dashboard.cards.hashrate'), exact: true })
        .first()
        .waitFor();
      expect(await balanceHidden.count()).toBe(0);
      expect(await hashrateHidden.count()).toBe(0);

      for (const [toggle, hidden, shown] of [
        ['settings.showBalance', balanceHidden, hashrateHidden],
        ['settings.showHashrate', hashrateHidden, balanceHidden],
      ] as const) {
        await page.goto('/settings');
        await page.getByRole('switch', { name: t(toggle) }).click();
        await page.getByRole('button', { name: t('settings.save') }).click();
        await page.getByText(t('settings.saved')).waitFor();
        await page.goto('/dashboard');
        await page
          .getByRole('region', { name: t('dashboard.cards.hashrate'), exact: true })
          .first()
          .waitFor();
        // Dashboard cards and the sidebar: Unpaid Balance + 24h Earnings + sidebar balance, or Hashrate card + sidebar hashrate.
        await hidden.first().waitFor();
        expect(await hidden.count()).toBeGreaterThanOrEqual(2);
        if (toggle === 'settings.showBalance') expect(await shown.count()).toBe(0);
        await page.goto('/workers');
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.locator('main .spinner').first().waitFor({ state: 'detached' });
        if (toggle === 'settings.showHashrate') {
          // Total Hashrate card, the worker's row and the sidebar.
          await hidden.first().waitFor();
          expect(await hidden.count()).toBeGreaterThanOrEqual(3);
        }
        // Switch it back on for the next round.
        await page.goto('/settings');
        await page.getByRole('switch', { name: t(toggle) }).click();
        await page.getByRole('button', { name: t('settings.save') }).click();
        await page.getByText(t('settings.saved')).waitFor();
      }
    } finally {
      await context.close();
    }
  });

  it('opens the notification panel at 375 px in Arabic without sideways scrolling, and marks all read', async () => {
    const session = sessions.get('ar');
    if (!session) throw new Error('no session');
    const t = translator('ar');
    const context = await newContext(browser, pool.baseUrl, {
      language: 'ar',
      width: PHONE,
      session: { token: session.token, user: session.user },
    });
    const page = await context.newPage();
    try {
      await page.goto('/dashboard');
      await page.locator('main h1').first().waitFor();
      // The phone top bar folds its actions into the menu.
      const bell = page.getByRole('button', { name: new RegExp(`^${t('notifications.bell')}`) });
      if (!(await bell.isVisible())) await page.locator('.topbar__toggle').click();
      await bell.click();
      const panel = page.getByRole('dialog', { name: t('notifications.title') });
      await panel.waitFor();
      await screenshot(page, 'phone-ar-375-notifications');
      const box = await panel.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      const markAll = panel.getByRole('button', { name: t('notifications.markAllRead') });
      if (await markAll.count()) {
        await markAll.click();
        await markAll.waitFor({ state: 'detached' });
      }
      const list = await api<{ items: { read: boolean }[] }>(pool.baseUrl, '/api/notifications', {
        token: session.token,
      });
      expect(list.items.every((item) => item.read)).toBe(true);
    } finally {
      await context.close();
    }
  });
});
