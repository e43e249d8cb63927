// Every route of the seed (and every page it links to), in English and Arabic, at 1280 and 375 px,
// signed out and signed in (an account with a declared miner and a mining worker, so tables have
// rows), each page loaded once per tab and every check of it made there (signed out, the public
// routes; a route that only sends the visitor on to a page the tab has checked is not checked again):
// - the page itself (a public route signed out, a protected one signed in): the right page (no
//   /404), <html dir/lang>, no script error, no serious or critical axe violation (1280 px), and a
//   screenshot under e2e/screenshots/ for a person to look at;
// - on a phone (375 px): no route scrolls sideways;
// - Mining Help within reach everywhere: at the top and at the bottom of the page the floating
//   button is shown, covers no control (nor does its hint bubble) it could not be scrolled clear of,
//   and one click opens the panel.
// One browser; one tab per language, width and visitor/signed-in, reused for every route; the tabs
// are checked two at a time (the e2e project's maxConcurrency), each in its own browser context.
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from './support/api.js';
import { launchBrowser, newContext, pageOverflow, screenshot, type Language } from './support/browser.js';
import { measureHelp } from './support/help.js';
import { translator } from './support/i18n.js';
import { miningAccount } from './support/miner.js';
import { startTestPool, type TestPool } from './support/pool.js';
import { PROTECTED_ROUTES, PUBLIC_ROUTES, slug } from './support/routes.js';

const LANGUAGES: Language[] = ['en', 'ar'];
/** A desktop and a small phone (iPhone SE): the phone's short viewport is the harder case for Mining Help. */
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
];
const PHONE = 375;
const ROUTES = [...PUBLIC_ROUTES, ...PROTECTED_ROUTES];

let pool: TestPool;
let browser: Browser;
/** One account per language (signing in adopts the account's saved language), mining on one worker. */
const sessions = new Map<Language, Session>();
let views = 0;
let controlsCompared = 0;
let scrollClear = 0;

beforeAll(async () => {
  pool = await startTestPool();
  browser = await launchBrowser();
  for (const language of LANGUAGES) {
    const session = await miningAccount(pool, `tour${language}`, language);
    sessions.set(language, session);
  }
});

afterAll(async () => {
  process.stdout.write(
    `Mining Help: ${views} route-views checked (each page of the ${ROUTES.length} routes x en/ar x 1280/375 px x signed in/out x top/bottom), ${controlsCompared} control boxes compared, ${scrollClear} overlapped at the top of a long page and cleared by scrolling on\n`,
  );
  await browser?.close();
  await pool?.stop();
});

async function openPage(language: Language, width: number, height: number, signedIn: boolean): Promise<Page> {
  const session = sessions.get(language);
  const context = await newContext(browser, pool.baseUrl, {
    language,
    width,
    height,
    ...(signedIn && session ? { session: { token: session.token, user: session.user } } : {}),
  });
  return context.newPage();
}

/** Loads the route and waits until the page is drawn (its heading, no spinner left). */
async function load(page: Page, route: string): Promise<void> {
  await page.goto(route);
  await page.locator('main h1').first().waitFor();
  await page.locator('main .spinner').first().waitFor({ state: 'detached' });
}

/** One click on the button opens the panel; a second click closes it again. */
async function opensWithOneClick(page: Page, title: string): Promise<boolean> {
  const fab = page.locator('.assistant__fab');
  if ((await fab.getAttribute('aria-expanded')) === 'true') await fab.click();
  await fab.click({ timeout: 5_000 });
  const panel = page.getByRole('dialog', { name: title });
  const opened = await panel
    .waitFor({ timeout: 5_000 })
    .then(() => true)
    .catch(() => false);
  await fab.click();
  await panel.waitFor({ state: 'detached' });
  return opened;
}

/** The route's own page (a public route signed out, a protected one signed in): what routes it renders and how. */
async function pageProblems(page: Page, route: string, language: Language, width: number): Promise<string[]> {
  const problems: string[] = [];
  const path = route.split('?')[0];
  const at = new URL(page.url()).pathname;
  if (at !== path) problems.push(`${route}: shown at ${at}`);
  const dir = await page.getAttribute('html', 'dir');
  if (dir !== (language === 'ar' ? 'rtl' : 'ltr')) problems.push(`${route}: <html dir="${dir}">`);
  const lang = await page.getAttribute('html', 'lang');
  if (lang !== language) problems.push(`${route}: <html lang="${lang}">`);
  if (width === 1280) {
    const axe = await new AxeBuilder({ page }).analyze();
    for (const v of axe.violations)
      if (v.impact === 'serious' || v.impact === 'critical')
        problems.push(
          `${route}: axe ${v.id}: ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
        );
  }
  await screenshot(page, `${language}-${width}-${slug(route)}`);
  return problems;
}

describe.each(LANGUAGES)('every route in %s', (language) => {
  const t = translator(language);
  for (const { width, height } of VIEWPORTS)
    for (const signedIn of [false, true])
      it.concurrent(
        `renders each page right at ${width} px ${signedIn ? 'signed in' : 'signed out'}${width === PHONE ? ' without sideways scrolling' : ''}, with Mining Help shown, covering no control and opening with one click`,
        async () => {
          const page = await openPage(language, width, height, signedIn);
          const errors: string[] = [];
          page.on('pageerror', (error) => errors.push(error.message));
          const problems: string[] = [];
          // Signed out, a protected route only sends the visitor to /login ('access rules' below);
          // signed in, the protected pages come first, so /login and /register (sent on to
          // /dashboard) find it checked.
          const routes = signedIn ? [...PROTECTED_ROUTES, ...PUBLIC_ROUTES] : PUBLIC_ROUTES;
          /** The pages this tab has checked: a route sent on to one of them (/login -> /dashboard) is not checked twice. */
          const checked = new Set<string>();
          for (const route of routes) {
            errors.length = 0;
            const drawn = await load(page, route).then(
              () => null,
              (error: unknown) => (error as Error).message.split('\n')[0],
            );
            if (drawn !== null) {
              problems.push(`${route}: not drawn (${drawn}) at ${page.url()}`);
              await screenshot(
                page,
                `problem-${language}-${width}-${signedIn ? 'in' : 'out'}-${slug(route)}`,
              );
              continue;
            }
            const landed = new URL(page.url());
            const at = `${route} -> ${landed.pathname}`;
            if (landed.pathname !== route.split('?')[0] && checked.has(landed.pathname + landed.search))
              continue;
            checked.add(landed.pathname + landed.search);
            if (PROTECTED_ROUTES.includes(route) === signedIn)
              problems.push(...(await pageProblems(page, route, language, width)));
            if (width === PHONE) {
              const { scrollWidth, culprits } = await pageOverflow(page);
              if (scrollWidth > width)
                problems.push(`${at}: ${scrollWidth} px > ${width} px (${culprits.join('; ')})`);
            }
            const beside = width > 768 && (await page.locator('.shell--sidebar').count()) > 0;
            for (const where of ['top', 'bottom'] as const) {
              const view = await measureHelp(page, where);
              views += 1;
              controlsCompared += view.compared;
              scrollClear += view.scrollClear;
              if (!view.reachable) problems.push(`${at} ${where}: the button is not shown or not clickable`);
              // Beside the sidebar, pages keep an end gutter for the button: it overlaps nothing even mid-page.
              if (beside && view.scrollClear > 0)
                problems.push(`${at} ${where}: overlaps beside the sidebar ${view.clearable.join(', ')}`);
              problems.push(...view.covered.map((c) => `${at} ${c}`));
              if (!(await opensWithOneClick(page, t('assistant.title'))))
                problems.push(`${at} ${where}: one click did not open the panel`);
            }
            problems.push(...errors.map((e) => `${at}: script error ${e}`));
          }
          await page.context().close();
          expect(problems).toEqual([]);
        },
      );
});

describe('the hint bubble', () => {
  it.each(LANGUAGES)(
    'covers no control at the top or the bottom of a page, in %s, at 1280 and 375 px',
    async (language) => {
      const problems: string[] = [];
      for (const { width, height } of VIEWPORTS)
        for (const route of ['/dashboard', '/workers', '/register']) {
          const page = await openPage(language, width, height, route !== '/register');
          // The seed's hint shows 5 s after the page loads: the page's clock is moved on by 5 s
          // (its timers fire as they would) instead of the test waiting them out.
          await page.clock.install();
          await load(page, route);
          await page.clock.fastForward(5_000);
          await page.locator('.assistant__hint').waitFor({ timeout: 8_000 });
          for (const where of ['top', 'bottom'] as const) {
            const view = await measureHelp(page, where);
            if (!view.hint) problems.push(`${route} ${width} ${where}: the hint went away`);
            problems.push(...view.covered.map((c) => `${route} ${width} ${c}`));
          }
          await page.context().close();
        }
      expect(problems).toEqual([]);
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
