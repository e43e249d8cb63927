// Help within reach everywhere: on every route of the seed, in English and Arabic, at 1280 and
// 375 px, signed in and signed out, at the top and at the bottom of the page, the Mining Help
// button is shown, covers no control (nor does its hint bubble), and one click opens the panel.
// One browser; one tab per language, width and visitor/signed-in, reused for every route; the tabs
// are checked two at a time (the e2e project's maxConcurrency), each in its own browser context.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin, type Session } from './support/api.js';
import { launchBrowser, newContext, type Language } from './support/browser.js';
import { measureHelp } from './support/help.js';
import { translator } from './support/i18n.js';
import { startTestPool, type TestPool } from './support/pool.js';
import { PROTECTED_ROUTES, PUBLIC_ROUTES } from './support/routes.js';

const LANGUAGES: Language[] = ['en', 'ar'];
/** A desktop and a small phone (iPhone SE): the phone's short viewport is the harder case. */
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
];
const ROUTES = [...PUBLIC_ROUTES, ...PROTECTED_ROUTES];

let pool: TestPool;
let browser: Browser;
const sessions = new Map<Language, Session>();
let views = 0;
let controlsCompared = 0;
let scrollClear = 0;

beforeAll(async () => {
  pool = await startTestPool();
  browser = await launchBrowser();
  for (const language of LANGUAGES)
    sessions.set(language, await registerAndLogin(pool.baseUrl, `help${language}`, language));
});

afterAll(async () => {
  process.stdout.write(
    `Mining Help: ${views} route-views checked (${ROUTES.length} routes x en/ar x 1280/375 px x signed in/out x top/bottom), ${controlsCompared} control boxes compared, ${scrollClear} overlapped at the top of a long page and cleared by scrolling on\n`,
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

describe.each(LANGUAGES)('Mining Help in %s', (language) => {
  const t = translator(language);
  for (const { width, height } of VIEWPORTS)
    for (const signedIn of [false, true])
      it.concurrent(
        `is shown, covers no control and opens with one click on every route at ${width} px, ${signedIn ? 'signed in' : 'signed out'}`,
        async () => {
          const page = await openPage(language, width, height, signedIn);
          const problems: string[] = [];
          for (const route of ROUTES) {
            await load(page, route);
            const at = `${route} -> ${new URL(page.url()).pathname}`;
            const beside = width > 768 && (await page.locator('.shell--sidebar').count()) > 0;
            for (const where of ['top', 'bottom'] as const) {
              const view = await measureHelp(page, where);
              views += 1;
              controlsCompared += view.compared;
              scrollClear += view.scrollClear;
              if (!view.reachable) problems.push(`${at} ${where}: the button is not shown or not clickable`);
              // Beside the sidebar, pages keep an end gutter for the button: it overlaps nothing even mid-page.
              if (beside && view.scrollClear > 0)
                problems.push(`${at} ${where}: overlaps ${view.scrollClear} control(s) beside the sidebar`);
              problems.push(...view.covered.map((c) => `${at} ${c}`));
              if (!(await opensWithOneClick(page, t('assistant.title'))))
                problems.push(`${at} ${where}: one click did not open the panel`);
            }
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
