// Figures that are true from the first second, seen in a browser in English and Arabic at 1280 and
// 375 px: on an account that mines SHA-256 and Scrypt (real test miners), with every API answer held
// back, no figure on the dashboard, the sidebar or the workers page reads 0 (or any hashrate) before
// its first answer, then the real figures come, each algorithm in its own unit; the smaller truths
// (a phone-wide miner search, the help hint once per browser, the RandomX guide tab, labelled pool
// settings copied, no absurd effort, what signed-out search can find, a webhook host that does not
// resolve, the assistant's 10-minute window); and every numeric field takes Arabic-Indic and Eastern
// Arabic-Indic digits and the Arabic decimal separator.
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { AccountAlerts, Settings, User, WorkerAlerts, WorkerList } from '@manjam/contract';
import { MESSAGES, MESSAGES_AR } from '@manjam/contract';
import { CATALOGS } from '../apps/server/src/i18n/index.js';
import { formatHashrate } from '../apps/server/src/services/shared/format.js';
import { api, registerAndLogin, type Session } from './support/api.js';
import { launchBrowser, newContext, pageOverflow, type Language } from './support/browser.js';
import { arabicDigits } from './support/digits.js';
import { translator } from './support/i18n.js';
import { mineShares } from './support/miner.js';
import { twoFactorAccount } from './support/operator.js';
import { startTestPool, type TestPool } from './support/pool.js';

const LANGUAGES: Language[] = ['en', 'ar'];
const WIDTHS = [1280, 375] as const;
/** How long every API answer is held back on the throttled network. */
const THROTTLE_MS = 2_500;

let pool: TestPool;
let browser: Browser;
/** The account that mines, one per language (its language is the one the app adopts on sign-in). */
const miners = new Map<Language, Session>();

beforeAll(async () => {
  pool = await startTestPool({ coins: ['LTC'] });
  browser = await launchBrowser();
  const scryptPort = pool.scryptPort;
  if (scryptPort === undefined) throw new Error('no Scrypt port');
  for (const language of LANGUAGES) {
    const session = await registerAndLogin(pool.baseUrl, `true${language}`, language);
    miners.set(language, session);
    await mineShares(pool.stratumPort, `${session.user.username}.s19`, 'sha256d', 3);
    await mineShares(scryptPort, `${session.user.username}.l7`, 'scrypt', 4);
  }
  // The share writer stores batches in the background: wait until both algorithms show for both.
  const deadline = Date.now() + 90_000;
  for (const session of miners.values())
    for (;;) {
      const list = await api<WorkerList>(pool.baseUrl, '/api/workers', { token: session.token });
      if (list.totals.hashrates.filter((h) => h.realtime > 0).length === 2) break;
      if (Date.now() > deadline) throw new Error('the shares of both workers were not stored in 90 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
});

afterAll(async () => {
  await browser?.close();
  await pool?.stop();
});

const session = (language: Language): Session => {
  const found = miners.get(language);
  if (!found) throw new Error(`no ${language} miner`);
  return found;
};

/** A zero as a figure reads: "0", "٠", "0.00", "0 H/s", "0 TH/s", "0.00 BTC". */
const ZERO_FIGURE = /^[0٠۰]([.,٫][0٠۰]+)?(\s*([kMGTPE]?H\/s|[A-Z]{3,4}))?$/;

/**
 * Records, in the page, every figure-like text shown in the main area or the sidebar (a zero as
 * above, or any hashrate) with the time it was on screen, so that what showed while the API answers
 * were held back can be told from what came after.
 */
async function recordFigures(context: BrowserContext): Promise<void> {
  await context.addInitScript((pattern: string) => {
    const zero = new RegExp(pattern);
    const seen: { at: number; text: string }[] = [];
    (window as unknown as { __figures: typeof seen }).__figures = seen;
    const scan = (): void => {
      for (const element of Array.from(document.querySelectorAll('main *, aside.sidebar *'))) {
        if (element.children.length > 0 && !element.matches('dd, td')) continue;
        const text = (element.textContent ?? '').replace(/[\u2066-\u2069\u200e\u200f]/g, '').trim();
        if (zero.test(text) || /\dH\/s|\d\s[kMGTPE]?H\/s/.test(text)) seen.push({ at: Date.now(), text });
      }
    };
    new MutationObserver(scan).observe(document, { subtree: true, childList: true, characterData: true });
  }, ZERO_FIGURE.source);
}

/** Figure-like texts the page showed before `until` (ms since the epoch), and from then on. */
async function figuresAround(page: Page, until: number): Promise<{ before: string[]; after: string[] }> {
  const seen = await page.evaluate(
    () => (window as unknown as { __figures: { at: number; text: string }[] }).__figures,
  );
  return {
    before: seen.filter((s) => s.at < until).map((s) => s.text),
    after: seen.filter((s) => s.at >= until).map((s) => s.text),
  };
}

/**
 * Holds every API answer of the page back until the gate is opened (and at least THROTTLE_MS):
 * `close()` before a navigation, `open()` once what the page shows meanwhile has been checked;
 * `opened` is when the first held answer could come.
 */
async function throttle(page: Page) {
  let open: () => void = () => undefined;
  let gate = Promise.resolve();
  const state = { opened: 0 };
  await page.route('**/api/**', async (route: Route) => {
    await Promise.all([gate, new Promise((resolve) => setTimeout(resolve, THROTTLE_MS))]);
    // A request of a page navigated away from meanwhile has nothing left to continue.
    await route.continue().catch(() => undefined);
  });
  return {
    state,
    close() {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    open() {
      state.opened = Date.now();
      open();
    },
  };
}

/** The unit of a hashrate text ("1.23 MH/s" -> "MH/s"). */
const unitOf = (text: string): string => /[kMGTPE]?H\/s/.exec(text)?.[0] ?? `no unit in "${text}"`;

/** The unit the API's figure is shown in (H/s, kH/s, MH/s, ... by its size). */
const unitFor = (hashesPerSecond: number): string => unitOf(formatHashrate(hashesPerSecond));

const ALGORITHM_NAMES = { sha256: 'SHA-256', scrypt: 'Scrypt' } as const;

describe.each(LANGUAGES)('in %s', (language) => {
  const t = translator(language);

  describe.each(WIDTHS)('at %i px', (width) => {
    it.concurrent(
      'shows placeholders, never a 0 or a hashrate, until the first answer on a throttled network, then each algorithm in its own unit',
      async ({ expect }) => {
        const miner = session(language);
        const context = await newContext(browser, pool.baseUrl, {
          language,
          width,
          session: { token: miner.token, user: miner.user },
        });
        await recordFigures(context);
        const page = await context.newPage();
        // What GET /api/me answered the page last: the sidebar shows that answer, and the pool
        // keeps crediting meanwhile (a coin's first credit adds a balance), so a fresh call of
        // the test's own may already hold one balance more.
        let pageMe: Promise<User> | undefined;
        page.on('response', (response) => {
          if (new URL(response.url()).pathname === '/api/me' && response.ok())
            pageMe = response.json() as Promise<User>;
        });
        const network = await throttle(page);
        const sidebar = page.locator('aside.sidebar');
        try {
          for (const route of ['/dashboard', '/workers']) {
            network.close();
            await page.goto(route);
            await page.locator('main h1').first().waitFor();
            // While nothing has answered: a placeholder (or the page's spinner) where figures go.
            await page.locator('main .spinner, main [aria-busy="true"]').first().waitFor();
            const sidebarShown = await sidebar.isVisible();
            if (sidebarShown) await sidebar.locator('.figure-placeholder').first().waitFor();
            network.open();
            const main = page.locator('main');
            await main.getByRole('region', { name: 'Scrypt', exact: true }).first().waitFor();
            if (sidebarShown) await sidebar.getByRole('region', { name: 'Scrypt', exact: true }).waitFor();
            const seen = await figuresAround(page, network.state.opened);
            expect(seen.before, `${route} before its answers`).toEqual([]);
            // The recorder saw the figures once they came (it watches what a person sees).
            expect(
              seen.after.some((text) => text.includes('H/s')),
              `${route} after its answers`,
            ).toBe(true);

            // The real figures: every algorithm in the unit its own figure calls for (Scrypt never TH/s).
            const before = await api<WorkerList>(pool.baseUrl, '/api/workers', { token: miner.token });
            for (const container of sidebarShown ? [main, sidebar] : [main]) {
              for (const [algorithm, name] of Object.entries(ALGORITHM_NAMES)) {
                const texts = await container
                  .getByRole('region', { name, exact: true })
                  .first()
                  .locator('dd')
                  .allInnerTexts();
                expect(texts.length, `${route} ${name}`).toBeGreaterThanOrEqual(2);
                const figures = before.totals.hashrates.find((h) => h.algorithm === algorithm);
                if (!figures) throw new Error(`no ${name} figures`);
                const after = await api<WorkerList>(pool.baseUrl, '/api/workers', { token: miner.token });
                const now = after.totals.hashrates.find((h) => h.algorithm === algorithm)?.realtime ?? 0;
                expect([unitFor(figures.realtime), unitFor(now)], `${route} ${name}: ${texts[0]}`).toContain(
                  unitOf(texts[0] ?? ''),
                );
                for (const text of texts)
                  expect(
                    text,
                    `${route} ${name}: ${texts.join(' | ')} ${JSON.stringify(after.totals.hashrates)}`,
                  ).not.toMatch(/^[0٠]([.,][0٠]+)? /);
              }
            }
            if (sidebarShown) {
              // The sidebar's count and every coin's balance, as /api/me answered the page.
              if (!pageMe) throw new Error(`${route}: the page never received /api/me`);
              const me = await pageMe;
              const stats = sidebar.locator('.profile-card__stats dd');
              expect(me.activeWorkers).toBe(2);
              expect((await stats.first().innerText()).trim()).toMatch(/^[2٢]$/);
              const balances = await sidebar.locator('.profile-card__balances li').allInnerTexts();
              expect(balances).toHaveLength(Math.max(1, me.balances?.length ?? 0));
              if ((me.balances ?? []).some((b) => BigInt(b.amount) > 0n))
                for (const text of balances)
                  expect(text.replace(/[\u2066-\u2069]/g, '')).not.toMatch(ZERO_FIGURE);
            }
          }
        } finally {
          await context.close();
        }
      },
    );

    it.concurrent(
      'fits /lookup and the miner search to the screen, says what signed-out search finds, shows the help hint once per browser and has no absurd effort on /stats',
      async ({ expect }) => {
        const context = await newContext(browser, pool.baseUrl, { language, width });
        const page = await context.newPage();
        try {
          // A miner search with a worker name signed out: "No miners found" with what works signed out.
          for (const route of ['/lookup', '/miners']) {
            await page.goto(route);
            await page.locator('main h1').first().waitFor();
            const { scrollWidth, culprits } = await pageOverflow(page);
            expect(scrollWidth, `${route}: ${culprits.join('; ')}`).toBeLessThanOrEqual(width);
            expect(
              await page.evaluate(
                () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
              ),
            ).toBe(true);
            // The logo and the page title whole, inside the screen.
            for (const whole of [page.locator('header .brand').first(), page.locator('main h1').first()]) {
              const box = await whole.boundingBox();
              expect(
                box && box.x >= 0 && box.x + box.width <= width + 1,
                `${route}: ${await whole.innerText()}`,
              ).toBe(true);
              expect(await whole.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
            }
          }
          await page.getByLabel(t('search.label')).fill('miner1.rig1');
          await page.getByRole('button', { name: t('search.button'), exact: true }).click();
          await page.getByText(t('search.none', { query: 'miner1.rig1' })).waitFor();
          await page.getByText(t('search.signedOutHint')).waitFor();

          // Effort on /stats: a share of a block's expected work, never billions of percent.
          await page.goto('/stats');
          await page.locator('main h1').first().waitFor();
          await page.locator('main .spinner').first().waitFor({ state: 'detached' });
          await page.locator('main table').first().waitFor();
          const efforts = await page.evaluate((header) => {
            const cells: string[] = [];
            for (const table of Array.from(document.querySelectorAll('main table'))) {
              const column = Array.from(table.querySelectorAll('thead th')).findIndex(
                (th) => th.textContent?.trim() === header,
              );
              if (column < 0) continue;
              for (const row of Array.from(table.querySelectorAll('tbody tr')))
                cells.push(row.children[column]?.textContent?.trim() ?? '');
            }
            return cells;
          }, t('stats.blockColumns.effort'));
          expect(efforts.length, 'blocks with an effort column on /stats').toBeGreaterThan(0);
          for (const effort of efforts)
            if (effort !== '—')
              expect(Number(effort.replace(/[,\s%\u2066-\u2069]/g, '')), effort).toBeLessThan(1_000);

          // The "Need help" hint shows once per browser: after it showed, the next page load has none.
          await page.clock.install();
          await page.goto('/support');
          await page.locator('main h1').first().waitFor();
          await page.clock.fastForward(6_000);
          const hint = page.getByText(t('assistant.hint'));
          await hint.waitFor();
          await page.reload();
          await page.locator('main h1').first().waitFor();
          await page.locator('.assistant__fab').waitFor();
          await page.clock.fastForward(30_000);
          await page.clock.runFor(1_000);
          expect(await hint.count()).toBe(0);
        } finally {
          await context.close();
        }
      },
    );

    it.concurrent(
      'opens the CPU guide on a RandomX tab without the ASIC line, copies labelled pool settings, names a webhook host that does not resolve, and explains the 10-minute window',
      async ({ expect }) => {
        const account = await registerAndLogin(pool.baseUrl, `guide${language}${width}`, language);
        const context = await newContext(browser, pool.baseUrl, {
          language,
          width,
          session: { token: account.token, user: account.user },
        });
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: pool.baseUrl });
        const page = await context.newPage();
        try {
          await page.goto('/dashboard');
          const guide = page.getByRole('dialog', { name: t('setupGuide.title') });
          const throughStep2 = async (): Promise<void> => {
            await guide
              .getByRole('button', { name: t('setupGuide.continue') })
              .first()
              .click();
            await guide
              .getByRole('button', { name: t('setupGuide.continue') })
              .first()
              .click();
          };
          // A CPU: the RandomX tab, selected; step 2 names XMRig without saying ASICs need no software.
          await page.getByRole('button', { name: new RegExp(t('dashboard.devices.cpu.title')) }).click();
          const randomx = guide.getByRole('tab', { name: t('setupGuide.filters.randomx'), exact: true });
          expect(await randomx.getAttribute('aria-selected')).toBe('true');
          await guide
            .getByRole('button', { name: t('setupGuide.continue') })
            .first()
            .click();
          const vars = { algorithm: 'RandomX', software: 'XMRig' };
          const asicLine = t('setupGuide.step2.body', vars)
            .slice(t('setupGuide.step2.bodyNoAsic', vars).length)
            .trim();
          expect(asicLine.length).toBeGreaterThan(0);
          await guide.getByText(t('setupGuide.step2.bodyNoAsic', vars)).waitFor();
          expect(await guide.innerText()).not.toContain(asicLine);
          await page.keyboard.press('Escape');
          await guide.waitFor({ state: 'detached' });

          // An ASIC on SHA-256: "Copy pool settings" copies the URL, username and password as labelled lines.
          await page.getByRole('button', { name: new RegExp(t('dashboard.devices.asic.title')) }).click();
          await throughStep2();
          await guide.getByRole('button', { name: t('setupGuide.step3.copy') }).click();
          await guide.getByText(t('setupGuide.step3.copied')).waitFor();
          expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
            [
              `${t('setupGuide.step3.url')}: stratum+tcp://127.0.0.1:${pool.stratumPort}`,
              `${t('setupGuide.step3.username')}: ${account.user.username}.worker1`,
              `${t('setupGuide.step3.password')}: x`,
            ].join('\n'),
          );
          await page.keyboard.press('Escape');
          await guide.waitFor({ state: 'detached' });

          // The assistant asked why a rig reads low explains the 10-minute window.
          await page.locator('.assistant__fab').click();
          const chat = page.getByRole('dialog', { name: t('assistant.title') });
          await chat
            .getByLabel(t('assistant.inputLabel'))
            .fill(language === 'en' ? 'why is my hashrate low' : 'لماذا معدل الهاش منخفض');
          await chat.getByRole('button', { name: t('assistant.send') }).click();
          const windowText = CATALOGS[language]['assistant.hashrate.window'];
          if (typeof windowText !== 'string') throw new Error('no window text');
          await chat.getByText(windowText.slice(0, 60)).waitFor();
          await page.keyboard.press('Escape');

          // Settings -> Notifications: a webhook host that does not resolve is told so plainly.
          await page.goto('/settings?tab=notifications');
          await page.getByLabel(t('alertSettings.webhook.url')).fill('https://no-such-host.invalid/hook');
          await page.getByRole('button', { name: t('alertSettings.webhook.save') }).click();
          const unresolved = (language === 'en' ? MESSAGES : MESSAGES_AR).webhookUnresolved;
          await page.getByText(unresolved).waitFor();
        } finally {
          await context.close();
        }
      },
    );

    it.concurrent(
      'takes Arabic-Indic and Eastern Arabic-Indic digits and the Arabic decimal separator in every numeric field',
      async ({ expect }) => {
        const account = await twoFactorAccount(pool, `digits${language}${width}`, language);
        // A worker of its own, for the worker page's alert thresholds.
        await mineShares(pool.stratumPort, `${account.user.username}.rig1`, 'sha256d', 1);
        let rig: number | undefined;
        for (const deadline = Date.now() + 60_000; rig === undefined;) {
          const list = await api<WorkerList>(pool.baseUrl, '/api/workers', { token: account.token });
          rig = list.workers.find((w) => w.name === 'rig1')?.id ?? undefined;
          if (Date.now() > deadline) throw new Error('rig1 not listed in 60 s');
          if (rig === undefined) await new Promise((resolve) => setTimeout(resolve, 250));
        }
        const context = await newContext(browser, pool.baseUrl, { language, width });
        const page = await context.newPage();
        try {
          // The authenticator code at sign-in, in Arabic-Indic digits.
          await page.goto('/login');
          await page.getByLabel(t('login.email')).fill(account.user.email);
          await page.getByLabel(t('login.password'), { exact: true }).fill(account.password);
          await page.getByRole('button', { name: t('login.submit'), exact: true }).click();
          await page.getByLabel(t('login.totp')).fill(arabicDigits(await account.nextCode(), 'arabic-indic'));
          await page.getByRole('button', { name: t('login.submit'), exact: true }).click();
          await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });

          // The payout threshold: "٠٫٠٥" saves 0.05 BTC, "۰٫۰۶" 0.06 BTC.
          await page.goto('/settings?tab=wallet');
          const threshold = page.getByLabel(t('settings.wallet.thresholdFor', { coin: '\u2068BTC\u2069' }));
          for (const [typed, units] of [
            [arabicDigits('0.05', 'arabic-indic'), '5000000'],
            [arabicDigits('0.06', 'eastern'), '6000000'],
          ] as const) {
            await threshold.fill(typed);
            await page
              .getByRole('button', { name: t('settings.wallet.thresholdSave') })
              .first()
              .click();
            await page.getByText(t('settings.wallet.thresholdSaved')).waitFor();
            const settings = await api<Settings>(pool.baseUrl, '/api/settings', { token: account.token });
            expect(settings.payouts.find((p) => p.coin === 'BTC')?.threshold, typed).toBe(units);
          }

          // The alert thresholds: offline minutes and drop percent in either digits.
          await page.goto('/settings?tab=notifications');
          await page.getByLabel(t('alertSettings.offlineMinutes')).fill(arabicDigits('15', 'arabic-indic'));
          await page.getByLabel(t('alertSettings.dropPercent')).fill(arabicDigits('40', 'eastern'));
          await page.getByRole('button', { name: t('alertSettings.save') }).click();
          await page.getByText(t('alertSettings.saved')).waitFor();
          const alerts = await api<AccountAlerts>(pool.baseUrl, '/api/settings/alerts', {
            token: account.token,
          });
          expect([alerts.offlineMinutes, alerts.dropPercent]).toEqual([15, 40]);

          // The worker page's own thresholds, the other way round.
          await page.goto(`/workers/${rig}`);
          await page.getByLabel(t('alertSettings.offlineMinutes')).fill(arabicDigits('20', 'eastern'));
          await page.getByLabel(t('alertSettings.dropPercent')).fill(arabicDigits('35', 'arabic-indic'));
          await page.getByRole('button', { name: t('alertSettings.save') }).click();
          await expect
            .poll(async () => {
              const own = await api<WorkerAlerts>(pool.baseUrl, `/api/workers/${rig}/alerts`, {
                token: account.token,
              });
              return [own.offlineMinutes, own.dropPercent];
            })
            .toEqual([20, 35]);

          // The calculator: every field typed in Arabic digits gives the results of the Western ones.
          await page.goto('/mining/calculator');
          const fields = [
            ['calculator.hashrate', '120.5'],
            ['calculator.difficulty', '1000000.5'],
            ['calculator.blockReward', '3.125'],
            ['calculator.fee', '1.5'],
            ['calculator.price', '65000.25'],
          ] as const;
          const results = page.locator('section[aria-labelledby="calc-results"]');
          const resultsFor = async (style: 'western' | 'arabic-indic' | 'eastern'): Promise<string> => {
            for (const [key, value] of fields)
              await page
                .getByLabel(t(key), { exact: true })
                .fill(style === 'western' ? value : arabicDigits(value, style));
            return results.innerText();
          };
          const western = await resultsFor('western');
          expect(western).not.toContain(t('calculator.invalid'));
          expect(await resultsFor('arabic-indic')).toBe(western);
          await resultsFor('western');
          expect(await resultsFor('eastern')).toBe(western);
        } finally {
          await context.close();
        }
      },
    );
  });
});
