// Phones: at 375 px no route scrolls sideways, in English and Arabic, signed out and signed in
// (with a mining worker and a declared miner, so that tables have rows), and the floating Mining
// Help button never covers a control it could not be scrolled clear of. Screenshots of the dashboard, workers,
// revenue and guide in both languages at 1280 and 375 px go to e2e/screenshots/.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StratumTestClient } from '../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { api, registerAndLogin, type Session } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { measureHelp } from './support/help.js';
import { translator } from './support/i18n.js';
import { PROTECTED_ROUTES, PUBLIC_ROUTES, slug } from './support/routes.js';
import { startTestPool, type TestPool } from './support/pool.js';

const LANGUAGES: Language[] = ['en', 'ar'];
const PHONE = 375;

let pool: TestPool;
let browser: Browser;
const sessions = new Map<Language, Session>();

async function mine(login: string, count: number): Promise<void> {
  const client = await StratumTestClient.connect(pool.stratumPort, { host: '127.0.0.1' });
  try {
    await client.subscribe();
    expect((await client.authorize(login)).result).toBe(true);
    let accepted = 0;
    while (accepted < count) {
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

beforeAll(async () => {
  pool = await startTestPool();
  browser = await launchBrowser();
  for (const language of LANGUAGES) {
    const session = await registerAndLogin(pool.baseUrl, `phone${language}`, language);
    sessions.set(language, session);
    await api(pool.baseUrl, '/api/miners', {
      token: session.token,
      body: {
        name: 'Garage Antminer S19 XP Hydro',
        type: 'asic',
        algorithm: 'sha256',
        workerName: 'rig-with-a-long-name-01',
      },
    });
    await mine(`${session.user.username}.rig-with-a-long-name-01`, 3);
  }
});

afterAll(async () => {
  await browser?.close();
  await pool?.stop();
});

/** What sticks out: the page's scroll width and the widest elements past the viewport. */
async function overflow(
  page: Page,
): Promise<{ scrollWidth: number; innerWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const innerWidth = window.innerWidth;
    const culprits: string[] = [];
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const rect = element.getBoundingClientRect();
      if (rect.width > 0 && (rect.right > innerWidth + 1 || rect.left < -1)) {
        const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${String(element.className).split(' ').join('.')}`;
        culprits.push(`${name} [${Math.round(rect.left)},${Math.round(rect.right)}]`);
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth, culprits: culprits.slice(0, 4) };
  });
}

/** Controls the Mining Help button (or its hint) covers at the top and at the bottom of the page (support/help.ts). */
async function coveredByHelp(page: Page): Promise<string[]> {
  const covered: string[] = [];
  for (const where of ['top', 'bottom'] as const) covered.push(...(await measureHelp(page, where)).covered);
  return covered;
}

// The four sweeps run two at a time (the e2e project's maxConcurrency), each in its own context.
describe.each(LANGUAGES)('at 375 px in %s', (language) => {
  it.concurrent.each([
    ['signed out', false],
    ['signed in', true],
  ] as const)(
    'no route scrolls sideways and Mining Help covers no control it cannot be scrolled clear of, %s',
    async (_, signedIn) => {
      const session = sessions.get(language);
      const context = await newContext(browser, pool.baseUrl, {
        language,
        width: PHONE,
        ...(signedIn && session ? { session: { token: session.token, user: session.user } } : {}),
      });
      const page = await context.newPage();
      const problems: string[] = [];
      try {
        for (const route of [...PUBLIC_ROUTES, ...PROTECTED_ROUTES]) {
          await page.goto(route);
          await page.locator('main h1').first().waitFor();
          await page.locator('main .spinner').first().waitFor({ state: 'detached' });
          const { scrollWidth, innerWidth, culprits } = await overflow(page);
          if (scrollWidth > innerWidth)
            problems.push(`${route}: ${scrollWidth} px > ${innerWidth} px (${culprits.join('; ')})`);
          for (const covered of await coveredByHelp(page))
            problems.push(`${route}: Mining Help covers ${covered}`);
        }
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    },
  );
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
