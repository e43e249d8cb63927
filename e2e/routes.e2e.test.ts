// Every route of the seed (and every page it links to), in English and Arabic, at desktop and
// phone widths: the right page (no /404), <html dir/lang>, no serious or critical axe violation,
// and a screenshot under e2e/screenshots/ for a person to look at.
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin, type Session } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { PROTECTED_ROUTES, PUBLIC_ROUTES, slug } from './support/routes.js';
import { startTestPool, type TestPool } from './support/pool.js';

const LANGUAGES: Language[] = ['en', 'ar'];
const WIDTHS = [1280, 375];

let pool: TestPool;
let browser: Browser;
/** One account per language: signing in adopts the account's saved language. */
const sessions = new Map<Language, Session>();

beforeAll(async () => {
  pool = await startTestPool();
  browser = await launchBrowser();
  for (const language of LANGUAGES)
    sessions.set(language, await registerAndLogin(pool.baseUrl, `tour${language}`, language));
});

afterAll(async () => {
  await browser?.close();
  await pool?.stop();
});

/** One tab per language, width and visitor/signed-in: contexts are the slow part on 2 cores. */
interface Tab {
  page: Page;
  errors: string[];
}

async function openTab(language: Language, width: number, signedIn: boolean): Promise<Tab> {
  const session = sessions.get(language);
  const context = await newContext(browser, pool.baseUrl, {
    language,
    width,
    ...(signedIn && session ? { session: { token: session.token, user: session.user } } : {}),
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

describe.each(LANGUAGES)('every route in %s', (language) => {
  const tabs = new Map<string, Tab>();
  const tab = async (width: number, signedIn: boolean): Promise<Tab> => {
    const key = `${width}:${signedIn}`;
    let found = tabs.get(key);
    if (!found) {
      found = await openTab(language, width, signedIn);
      tabs.set(key, found);
    }
    return found;
  };

  afterAll(async () => {
    for (const { page } of tabs.values()) await page.context().close();
  });

  it.each([
    ...PUBLIC_ROUTES.map((r) => [r, false] as const),
    ...PROTECTED_ROUTES.map((r) => [r, true] as const),
  ])(
    'renders %s with the right direction, no serious accessibility issue, and a screenshot',
    async (route, signedIn) => {
      // The two widths side by side, each in its own tab.
      await Promise.all(WIDTHS.map((width) => atWidth(route, signedIn, width)));
    },
  );

  /** One route at one width in its tab: the right page and direction, no serious axe violation, a screenshot. */
  async function atWidth(route: string, signedIn: boolean, width: number): Promise<void> {
    const { page, errors } = await tab(width, signedIn);
    errors.length = 0;
    await page.goto(route);
    const path = route.split('?')[0];
    await page.locator('main h1').first().waitFor();
    expect(new URL(page.url()).pathname).toBe(path);
    expect(await page.getAttribute('html', 'dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
    expect(await page.getAttribute('html', 'lang')).toBe(language);
    // Loaded, not loading: no spinner left in the page.
    await page.locator('main .spinner').first().waitFor({ state: 'detached' });
    if (width === 1280) {
      const axe = await new AxeBuilder({ page }).analyze();
      const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(
        serious.map(
          (v) =>
            `${v.id}: ${v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 3)
              .join(', ')}`,
        ),
      ).toEqual([]);
    }
    await screenshot(page, `${language}-${width}-${slug(route)}`);
    expect(errors).toEqual([]);
  }
});

describe('access rules', () => {
  it('sends a visitor from a protected page to /login', async () => {
    const context = await newContext(browser, pool.baseUrl, { language: 'en' });
    const page = await context.newPage();
    for (const route of PROTECTED_ROUTES) {
      await page.goto(route);
      await page.waitForURL('**/login');
    }
    await context.close();
  });

  it('sends a signed-in user from /login and /register to /dashboard', async () => {
    const session = sessions.get('en');
    if (!session) throw new Error('no signed-in session');
    const context = await newContext(browser, pool.baseUrl, {
      language: 'en',
      session: { token: session.token, user: session.user },
    });
    const page = await context.newPage();
    for (const route of ['/login', '/register']) {
      await page.goto(route);
      await page.waitForURL('**/dashboard');
    }
    await context.close();
  });

  it('sends an unknown path to /404 with a way home', async () => {
    const context = await newContext(browser, pool.baseUrl, { language: 'en' });
    const page = await context.newPage();
    await page.goto('/no/such/page');
    await page.waitForURL('**/404');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL(pool.baseUrl.replace(/\/$/, '') + '/');
    await context.close();
  });
});
