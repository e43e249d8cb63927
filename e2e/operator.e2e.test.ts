// The operator console in Chromium against the whole pool (bcoin regtest, Stratum and accounting in
// this process), in English and Arabic, at 1280 and 375 px (issue 30): a miner who is not an
// operator meets the 404 page and a 404 from the API; an operator signs in with password and 2FA
// code, reads why a payout run failed, settles a held run, lifts a ban in force in the pool's
// Stratum ban list, sees a miner's worker among the top workers and the running config; on a phone
// nothing scrolls sideways.
// Screenshots: e2e/screenshots/operator-<language>-<width>-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failRun } from '../apps/server/src/accounting/payout-ledger.js';
import { StratumTestClient } from '../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { registerAndLogin } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
import { banLogin, newHeldRun, operatorAccount } from './support/operator.js';
import { startTestPool, type TestPool } from './support/pool.js';

let pool: TestPool;
let browser: Browser;
/** A run accounting failed for want of funds, the same one read in every language and width. */
let failedRunId: string;

beforeAll(async () => {
  pool = await startTestPool();
  browser = await launchBrowser();
  failedRunId = await newHeldRun(pool, 'operator-failed');
  if (!(await failRun(pool.pool.db, BigInt(failedRunId), 'wallet-short', 'Insufficient funds')))
    throw new Error('the run could not be failed');
});

afterAll(async () => {
  await browser?.close();
  await pool?.stop();
});

/** A miner that sends one valid share (its worker is then among the top workers). */
async function mineOneShare(login: string): Promise<void> {
  const miner = await StratumTestClient.connect(pool.stratumPort, { host: '127.0.0.1' });
  try {
    await miner.subscribe();
    expect((await miner.authorize(login)).result).toBe(true);
    const reply = await miner.submit(login, miner.findShare(await miner.waitForJob(), 'sha256d'));
    expect(reply.error).toBeNull();
  } finally {
    await miner.close();
  }
}

const noSidewaysScroll = (page: Page, width: number) =>
  page.evaluate((w) => document.documentElement.scrollWidth <= w, width);

describe.each<[Language, number]>([
  ['en', 1280],
  ['en', 375],
  ['ar', 1280],
  ['ar', 375],
])('the operator console in %s at %i px', (language, width) => {
  const t = translator(language);

  it('shows a signed-in miner who is not an operator the 404 page at /operator, and the API answers 404', async () => {
    const miner = await registerAndLogin(pool.baseUrl, `notop${language}${width}`, language);
    for (const token of [miner.token, undefined]) {
      const res = await fetch(new URL('/api/operator/health', pool.baseUrl), {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('route-not-found');
    }
    const context = await newContext(browser, pool.baseUrl, {
      language,
      width,
      session: { token: miner.token, user: miner.user },
    });
    try {
      const page = await context.newPage();
      await page.goto('/operator');
      await page.getByRole('heading', { name: t('notFound.title') }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/404');
      expect(await page.getByRole('heading', { name: t('operator.title') }).count()).toBe(0);
      expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
      expect(await noSidewaysScroll(page, width)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('lets an operator signed in with password and 2FA code read why a run failed, settle a held run and lift a ban', async () => {
    const operator = await operatorAccount(pool, `op${language}${width}`, language);
    const heldId = await newHeldRun(pool, `operator-${language}-${width}`);
    const miner = await registerAndLogin(pool.baseUrl, `rig${language}${width}`, language);
    const login = `${miner.user.username}.flood`;
    const context = await newContext(browser, pool.baseUrl, { language, width });
    const page = await context.newPage();
    try {
      // Sign in: the password first, then the code the server asks for.
      await page.goto('/login');
      await page.getByLabel(t('login.email')).fill(operator.user.email);
      await page.getByLabel(t('login.password'), { exact: true }).fill(operator.password);
      await page.getByRole('button', { name: t('login.submit'), exact: true }).click();
      await page.getByLabel(t('login.totp')).fill(await operator.nextCode());
      await page.getByRole('button', { name: t('login.submit'), exact: true }).click();
      await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });

      await page.goto('/operator');
      await page.getByRole('heading', { name: t('operator.title') }).waitFor();
      await page.getByText(t('operator.health.database')).first().waitFor();
      expect(await noSidewaysScroll(page, width)).toBe(true);
      await screenshot(page, `operator-${language}-${width}-health`);

      // Why a run failed, and settling the held one (as failed: its payees get their balances back).
      await page.getByRole('tab', { name: t('operator.tabs.runs') }).click();
      // A run's row by its id, the first cell (other cells hold small numbers too).
      const runRow = (id: string) =>
        page
          .locator('tbody tr')
          .filter({ has: page.locator('td:first-child').getByText(id, { exact: true }) });
      await runRow(failedRunId).getByText('wallet-short: Insufficient funds').waitFor();
      const held = runRow(heldId);
      await held.getByText(t('operator.runs.states.intent')).waitFor();
      expect(await noSidewaysScroll(page, width)).toBe(true);
      await screenshot(page, `operator-${language}-${width}-runs`);
      await held.getByRole('button', { name: t('operator.runs.settleFailed') }).click();
      const dialog = page.getByRole('dialog', { name: t('operator.runs.failedTitle', { id: heldId }) });
      await dialog.getByRole('button', { name: t('operator.confirm') }).click();
      await page.getByText(t('operator.runs.settled', { id: heldId })).waitFor();
      await held.getByText(t('operator.runs.states.failed')).waitFor();
      expect(await held.getByRole('button', { name: t('operator.runs.settleFailed') }).count()).toBe(0);

      // A ban in force on an address, lifted from the console: the pool takes that login again.
      const ip = `203.0.113.${language === 'en' ? 1 : 2}${width === 375 ? 1 : 2}`;
      banLogin(pool, ip, login);
      await page.getByRole('tab', { name: t('operator.tabs.bans') }).click();
      const banRow = page.getByRole('row').filter({ hasText: login });
      await banRow.getByText(t('operator.bans.scopeConnection')).waitFor();
      expect(await noSidewaysScroll(page, width)).toBe(true);
      await screenshot(page, `operator-${language}-${width}-bans`);
      await banRow.getByRole('button', { name: t('operator.bans.lift') }).click();
      await page
        .getByRole('dialog', { name: t('operator.bans.liftTitle', { ip }) })
        .getByRole('button', { name: t('operator.confirm') })
        .click();
      await page.getByText(t('operator.bans.lifted', { ip })).waitFor();
      await expect.poll(() => banRow.count()).toBe(0);
      expect(pool.pool.stratum?.bans().isLoginBanned(ip, login)).toBe(false);

      // A worker's accepted share puts it among the top workers.
      await mineOneShare(login);
      await page.getByRole('tab', { name: t('operator.tabs.workers') }).click();
      await page.getByRole('row').filter({ hasText: miner.user.username }).getByText('flood').waitFor();
      expect(await noSidewaysScroll(page, width)).toBe(true);
      await screenshot(page, `operator-${language}-${width}-workers`);

      // The config as running, with its secrets redacted, scrolled inside its box on a phone.
      await page.getByRole('tab', { name: t('operator.tabs.config') }).click();
      const config = page.getByLabel(t('operator.config.label'), { exact: true });
      await config.getByText('"publicHost": "127.0.0.1"').waitFor();
      // Any value under a secret-named key is the placeholder.
      expect(await config.innerText()).not.toMatch(/"[^"]*(password|secret|token)[^"]*": "(?!\[redacted\])/i);
      expect(await noSidewaysScroll(page, width)).toBe(true);
      await screenshot(page, `operator-${language}-${width}-config`);

      // Each action is in the audit log with this operator's email.
      await page.getByRole('tab', { name: t('operator.tabs.audit') }).click();
      const audit = page.getByRole('row').filter({ hasText: operator.user.email });
      await audit.filter({ hasText: t('operator.audit.actions.lift-ban') }).waitFor();
      await audit
        .filter({ hasText: t('operator.audit.actions.settle-payout-run') })
        .filter({ hasText: `run ${heldId} failed` })
        .waitFor();
      expect(await noSidewaysScroll(page, width)).toBe(true);
      await screenshot(page, `operator-${language}-${width}-audit`);
    } finally {
      await context.close();
    }
  });
});
