// Watcher links in Chromium (issue 27, monitoring), in English and Arabic on a 375 px phone: the
// owner creates a link in Settings → Monitoring (with the password), opens it signed out and sees
// the chosen pages, revokes it, and the same link then says it is gone (404). No step scrolls the
// page sideways. Screenshots go to e2e/screenshots/.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
import { startTestPool, type TestPool } from './support/pool.js';

const WIDTH = 375;
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

/** The page's scroll width, and the first elements that stick out past the viewport. */
const pageWidth = (page: Page): Promise<{ width: number; culprits: string[] }> =>
  page.evaluate(() => {
    const culprits = Array.from(document.querySelectorAll('body *'))
      .filter((element) => {
        const rect = element.getBoundingClientRect();
        return rect.width > 0 && (rect.right > window.innerWidth + 1 || rect.left < -1);
      })
      .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).split(' ').join('.')}`);
    return { width: document.documentElement.scrollWidth, culprits: culprits.slice(0, 6) };
  });

async function fits(page: Page): Promise<void> {
  const { width, culprits } = await pageWidth(page);
  expect({ width: Math.min(width, WIDTH), culprits: width > WIDTH ? culprits : [] }).toEqual({
    width: Math.min(width, WIDTH),
    culprits: [],
  });
}

describe.each(['en', 'ar'] as Language[])('watcher links [%s]', (language) => {
  const t = translator(language);

  it('creates a link, shows it signed out, and answers "gone" once revoked, within 375 px', async () => {
    const session = await registerAndLogin(pool.baseUrl, `watch${language}`, language);
    const owner = await newContext(browser, pool.baseUrl, { language, width: WIDTH, height: 800, session });
    const visitor = await newContext(browser, pool.baseUrl, { language, width: WIDTH, height: 800 });
    try {
      const settings = await owner.newPage();
      await settings.goto('/settings?tab=monitoring');
      const links = settings.getByRole('region', { name: t('monitoring.links.title') });
      await links.waitFor();
      await links.getByLabel(t('monitoring.links.label')).fill('Family');
      await links.getByRole('checkbox', { name: t('monitoring.pages.dashboard') }).uncheck();
      await links.getByLabel(t('settings.wallet.password')).fill(session.password);
      await links.getByRole('button', { name: t('monitoring.links.create') }).click();
      const url = links.locator('bdi.monitoring__value');
      await url.waitFor();
      const href = (await url.textContent()) ?? '';
      expect(href).toMatch(/\/watch\/[A-Za-z0-9_-]{43}$/);
      expect(await url.getAttribute('dir')).toBe('ltr');
      await fits(settings);
      await screenshot(settings, `watch-links-settings-${language}-${WIDTH}`);

      const watch = await visitor.newPage();
      await watch.goto(href);
      await watch.getByRole('heading', { level: 1, name: `${t('watch.title')}: Family` }).waitFor();
      await watch.getByRole('region', { name: t('monitoring.pages.workers') }).waitFor();
      await watch.getByRole('region', { name: t('monitoring.pages.payouts') }).waitFor();
      expect(await watch.getByRole('region', { name: t('monitoring.pages.dashboard') }).count()).toBe(0);
      expect(await watch.getByText(session.user.email).count()).toBe(0);
      await fits(watch);
      await screenshot(watch, `watch-links-page-${language}-${WIDTH}`);

      await links.getByRole('button', { name: t('monitoring.revokeNamed', { name: 'Family' }) }).click();
      await links.getByText(t('monitoring.revoked')).waitFor();
      await watch.reload();
      await watch.getByRole('heading', { level: 1, name: t('watch.goneTitle') }).waitFor();
      await fits(watch);
      await screenshot(watch, `watch-links-gone-${language}-${WIDTH}`);
    } finally {
      await owner.close();
      await visitor.close();
    }
  });
});
