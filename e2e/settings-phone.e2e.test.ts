// Settings on a 375 px phone (issue 27, item 11): every tab, in English and Arabic, opens without
// sideways scrolling (the page stays 375 px wide, the payout address wraps), and the active tab is
// inside the tab strip's visible part (the strip scrolls it into view).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_TABS } from '../apps/web/src/features/settings/tabs.js';
import { registerAndLogin } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
import { startTestPool, type TestPool } from './support/pool.js';

const PHONE = 375;
let pool: TestPool;
let browser: Browser;
const widest: string[] = [];

beforeAll(async () => {
  pool = await startTestPool();
  browser = await launchBrowser();
});

afterAll(async () => {
  process.stdout.write(`Settings at ${PHONE} px: ${widest.join('; ')}\n`);
  await browser?.close();
  await pool?.stop();
});

describe('Settings on a phone', () => {
  it.each(['en', 'ar'] as Language[])(
    'opens every Settings tab at 375 px without sideways scrolling, the active tab in view (%s)',
    async (language) => {
      const session = await registerAndLogin(pool.baseUrl, `tabs${language}`, language);
      const t = translator(language);
      const context = await newContext(browser, pool.baseUrl, {
        language,
        width: PHONE,
        height: 667,
        session: { token: session.token, user: session.user },
      });
      const page = await context.newPage();
      const widths: string[] = [];
      try {
        await page.goto('/settings');
        await page.getByRole('tablist', { name: t('settings.tabsLabel') }).waitFor();
        for (const id of SETTINGS_TABS) {
          const tab = page.getByRole('tab', { name: t(`settings.tabs.${id}`), exact: true });
          await tab.click();
          await page
            .getByRole('heading', { level: 2, name: t(`settings.tabs.${id}`), exact: true })
            .waitFor();
          await page.locator('main .spinner').first().waitFor({ state: 'detached' });
          const measure = await page.evaluate((tabId) => {
            const list = document.querySelector('[role="tablist"]');
            const active = document.getElementById(tabId);
            const listBox = list?.getBoundingClientRect();
            const box = active?.getBoundingClientRect();
            return {
              scrollWidth: document.documentElement.scrollWidth,
              inView:
                listBox !== undefined &&
                box !== undefined &&
                box.left >= listBox.left - 1 &&
                box.right <= listBox.right + 1,
            };
          }, `settings-tab-${id}`);
          widths.push(`${id} ${measure.scrollWidth}`);
          expect(measure.scrollWidth, `${language} ${id}`).toBeLessThanOrEqual(PHONE);
          expect(measure.inView, `${language} ${id} tab in view`).toBe(true);
          if (id === 'wallet' || id === 'account') await screenshot(page, `settings-phone-${id}-${language}`);
        }
      } finally {
        widest.push(`${language}: ${widths.join(', ')}`);
        await context.close();
      }
    },
  );
});
