// Every route of the seed (and every page it links to), in English and Arabic, at desktop and
// phone widths: the right page (no /404), <html dir/lang>, no serious or critical axe violation,
// and a screenshot under e2e/screenshots/ for a person to look at.
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin, type Session } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { startTestPool, type TestPool } from './support/pool.js';

const PUBLIC_ROUTES = [
  '/', '/login', '/register', '/forgot-password', '/marketplace', '/support', '/learn', '/404',
  '/about', '/miners', '/miners?search=bcrt1qexample', '/wallet', '/help', '/faq', '/blog', '/terms',
  '/privacy', '/cookies', '/downloads', '/stats', '/payouts', '/mining/sha256', '/mining/scrypt',
  '/mining/kadena', '/mining/kaspa', '/mining/calculator',
];
const PROTECTED_ROUTES = ['/dashboard', '/workers', '/revenue', '/settings'];
const LANGUAGES: Language[] = ['en', 'ar'];
const WIDTHS = [1280, 375];

let pool: TestPool;
let browser: Browser;
let session: Session;

beforeAll(async () => {
  pool = await startTestPool();
  browser = await launchBrowser();
  session = await registerAndLogin(pool.baseUrl, 'tour');
});

afterAll(async () => {
  await browser?.close();
  await pool?.stop();
});

const slug = (route: string) => (route === '/' ? 'home' : route.slice(1).replace(/[/?=]/g, '_'));

describe.each(LANGUAGES)('every route in %s', (language) => {
  it.each([...PUBLIC_ROUTES.map((r) => [r, false] as const), ...PROTECTED_ROUTES.map((r) => [r, true] as const)])(
    'renders %s with the right direction, no serious accessibility issue, and a screenshot',
    async (route, signedIn) => {
      for (const width of WIDTHS) {
        const context = await newContext(browser, pool.baseUrl, {
          language,
          width,
          ...(signedIn ? { session: { token: session.token, user: session.user } } : {}),
        });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(route, { waitUntil: 'networkidle' });
        const path = route.split('?')[0];
        expect(new URL(page.url()).pathname).toBe(path);
        expect(await page.getAttribute('html', 'dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
        expect(await page.getAttribute('html', 'lang')).toBe(language);
        await page.locator('main h1').first().waitFor();
        if (width === 1280) {
          const axe = await new AxeBuilder({ page }).analyze();
          const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
          expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
        }
        await screenshot(page, `${language}-${width}-${slug(route)}`);
        expect(errors).toEqual([]);
        await context.close();
      }
    },
  );
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
    const context = await newContext(browser, pool.baseUrl, { language: 'en', session: { token: session.token, user: session.user } });
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
