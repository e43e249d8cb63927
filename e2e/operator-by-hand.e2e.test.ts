// The operator's manual steps in the console, in Chromium against the whole pool (bcoin regtest,
// Stratum and accounting in this process), in English and Arabic, at 1280 and 375 px: an account
// is granted the operator role with `manjam operator grant` while the pool runs (the CLI reaches
// the pool's embedded database over its control socket), signs in with password and 2FA code,
// records a payout made by hand against a sent run whose transaction went missing, and credits
// a returned block's payees back; the audit log shows both, and the block's finder has back what
// was reversed. On a phone the console's tabs wrap: neither they nor the page scroll sideways.
// Screenshots: e2e/screenshots/operator-hand-<language>-<width>-*.png.
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BalancesRepository } from '../apps/server/src/db/repositories/balances.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
import { grantWithCli, newMissingRun, newReturnedBlock, twoFactorAccount } from './support/operator.js';
import { startTestPool, type TestPool } from './support/pool.js';

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

/** Nothing scrolls sideways: the elements reaching past the viewport's edge (none when the page fits). */
const overflowing = (page: Page, width: number) =>
  page.evaluate((w) => {
    const scrollWidth = document.documentElement.scrollWidth;
    if (scrollWidth <= w) return [];
    const past = Array.from(document.body.querySelectorAll<HTMLElement>('*'))
      .filter((el) => {
        const past = (e: Element) => e.getBoundingClientRect().right > w + 1;
        // The innermost elements past the edge (none of their children is).
        return past(el) && !Array.from(el.children).some(past);
      })
      .slice(0, 5)
      .map((el) => {
        const where = el.closest('[class]:not(svg, svg *)')?.getAttribute('class') ?? 'body';
        return `${el.tagName.toLowerCase()} in .${where}: ${(el.textContent ?? '').slice(0, 40)}`;
      });
    return past.length > 0 ? past : [`the page is ${scrollWidth} px wide`];
  }, width);

/** How long a layout may take to settle once the section's data is shown. */
const SETTLED = { timeout: 5_000 };

/** Every console tab inside the viewport, and the tab list not scrolled sideways. */
const tabsFit = (page: Page, width: number) =>
  page.evaluate((w) => {
    const list = document.querySelector<HTMLElement>('[role="tablist"]');
    if (!list) return false;
    const tabs = Array.from(list.querySelectorAll<HTMLElement>('[role="tab"]'));
    return (
      tabs.length > 0 &&
      list.scrollWidth <= list.clientWidth &&
      tabs.every((tab) => {
        const box = tab.getBoundingClientRect();
        return box.left >= 0 && box.right <= w;
      })
    );
  }, width);

describe.each<[Language, number]>([
  ['en', 1280],
  ['en', 375],
  ['ar', 1280],
  ['ar', 375],
])('the operator’s manual steps in %s at %i px', (language, width) => {
  const t = translator(language);

  it('grants an operator while the pool runs, records a hand-made payout and credits a returned block back, both in the audit log', async () => {
    // A name as long as the other operator tests' (`op…`): in English at 1280 px an operator's
    // username of about 19 characters (`handen1280` + 9) pushes the header's notification bell 6-8 px
    // past the edge, depending on its letters (the app header's layout, not the console's).
    const account = await twoFactorAccount(pool, `hb${language}${width}`, language);
    // Not an operator yet: the console does not exist for this account.
    const before = await fetch(new URL('/api/operator/health', pool.baseUrl), {
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(before.status).toBe(404);
    expect(await grantWithCli(pool, account.user.email)).toBe(
      `${account.user.email} is now an operator (the console asks for a sign-in with password and 2FA code)`,
    );
    const missingId = await newMissingRun(pool, `hand-${language}-${width}`);
    const block = await newReturnedBlock(pool, `${language}-${width}`);
    const balance = () => new BalancesRepository(pool.pool.db).get(block.payeeId, 'LTC');
    expect(await balance()).toBe(0n);

    const context = await newContext(browser, pool.baseUrl, { language, width });
    const page = await context.newPage();
    try {
      await page.goto('/login');
      await page.getByLabel(t('login.email')).fill(account.user.email);
      await page.getByLabel(t('login.password'), { exact: true }).fill(account.password);
      await page.getByRole('button', { name: t('login.submit'), exact: true }).click();
      await page.getByLabel(t('login.totp')).fill(await account.nextCode());
      await page.getByRole('button', { name: t('login.submit'), exact: true }).click();
      await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
      await page.goto('/operator');
      await page.getByRole('heading', { name: t('operator.title') }).waitFor();
      await page.getByText(t('operator.health.database')).first().waitFor();
      await expect.poll(() => overflowing(page, width), SETTLED).toEqual([]);
      await expect.poll(() => tabsFit(page, width), SETTLED).toBe(true);

      // The payment made by hand, recorded against the run whose transaction went missing.
      const txid = randomBytes(32).toString('hex');
      await page.getByRole('tab', { name: t('operator.tabs.runs') }).click();
      const run = page
        .locator('tbody tr')
        .filter({ has: page.locator('td:first-child').getByText(missingId, { exact: true }) });
      await run.getByText(t('operator.runs.states.sent')).waitFor();
      await run.getByRole('button', { name: t('operator.runs.settleSent') }).click();
      const sent = page.getByRole('dialog', { name: t('operator.runs.sentTitle', { id: missingId }) });
      await sent.getByLabel(t('operator.runs.txidLabel')).fill(txid);
      await expect.poll(() => overflowing(page, width), SETTLED).toEqual([]);
      await screenshot(page, `operator-hand-${language}-${width}-payout`);
      await sent.getByRole('button', { name: t('operator.confirm') }).click();
      await page.getByText(t('operator.runs.settled', { id: missingId })).waitFor();
      await run.getByText(txid).waitFor();
      expect(await run.getByRole('button', { name: t('operator.runs.settleSent') }).count()).toBe(0);

      // The returned block's payees credited back from its alert, after a confirm.
      await page.getByRole('tab', { name: t('operator.tabs.alerts') }).click();
      const alert = page.getByRole('article').filter({ hasText: `(id ${block.blockId})` });
      await alert.getByText(t('operator.runbook.block-returned')).waitFor();
      await expect.poll(() => overflowing(page, width), SETTLED).toEqual([]);
      await alert.getByRole('button', { name: t('operator.alerts.recredit') }).click();
      const confirm = page.getByRole('dialog', {
        name: t('operator.alerts.recreditTitle', { id: String(block.blockId) }),
      });
      await confirm.getByText(t('operator.alerts.recreditBody')).waitFor();
      await screenshot(page, `operator-hand-${language}-${width}-recredit`);
      await confirm.getByRole('button', { name: t('operator.confirm') }).click();
      const [done = ''] = t('operator.alerts.recredited', { id: String(block.blockId), amount: '§' }).split(
        '§',
      );
      await page.getByText(done, { exact: false }).waitFor();
      // Credited once: the alert and its button are gone, the finder's balance is what was reversed.
      await expect.poll(() => alert.count()).toBe(0);
      expect(await balance()).toBe(block.credit);

      // Both actions in the audit log, with this operator's email.
      await page.getByRole('tab', { name: t('operator.tabs.audit') }).click();
      const audit = page.getByRole('row').filter({ hasText: account.user.email });
      await audit
        .filter({ hasText: t('operator.audit.actions.settle-payout-run') })
        .filter({ hasText: `run ${missingId} sent` })
        .waitFor();
      await audit
        .filter({ hasText: t('operator.audit.actions.recredit-block') })
        .filter({ hasText: `block ${block.blockId} LTC ${block.height}` })
        .waitFor();
      await expect.poll(() => overflowing(page, width), SETTLED).toEqual([]);
      await expect.poll(() => tabsFit(page, width), SETTLED).toBe(true);
      await screenshot(page, `operator-hand-${language}-${width}-audit`);
    } finally {
      await context.close();
    }
  });
});
