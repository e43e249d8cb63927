// Every dialog, popover and overlay on a 375 px phone (issue 27, "How it is shown"), in English and
// Arabic, signed in with a declared miner, a live worker it claims, a live worker nobody claims and
// two notifications, so that each dialog has its content: the mobile menu, the notifications
// panel, the Mining Help hint and assistant panel, Add Miner (both tabs), Find Miner (with
// results), the setup guide from each device card (ASIC walked to Test Connection), Edit Miner,
// Delete Miner, declaring a worker, the workers' Help, Add Worker's guide, Edit Worker, the worker
// delete confirmation, Revenue's Filter and Help; Settings' panels that open in the page (the 2FA
// setup, a new API token, a new watcher link, the password form's errors); and the operator
// console's confirmations (close an alert, settle a run as sent or failed, lift a ban). Each one:
// visible; inside the 375 px viewport and not wider than itself (nothing sticks out, the page does
// not scroll sideways); its primary buttons reachable (scrolled into view, on top where they are);
// closed with Escape or its close button (the in-page panels with their Cancel, where they have
// one). Screenshots: e2e/screenshots/dialog-<name>-<language>-375.png.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperatorAlertsRepository } from '../apps/server/src/db/repositories/operator-alerts.js';
import { FixtureWriter } from '../apps/server/test/support/db/fixtures.js';
import { api, registerAndLogin, waitForWorker, type Session } from './support/api.js';
import { launchBrowser, newContext, pageOverflow, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
import { banLogin, newHeldRun, operatorAccount, operatorSession } from './support/operator.js';
import { startTestPool, type TestPool } from './support/pool.js';

const PHONE = 375;
const HEIGHT = 667;
const LANGUAGES: Language[] = ['en', 'ar'];
const MINER = 'Rack 3 S19';

let pool: TestPool;
let browser: Browser;
const accounts = new Map<Language, Session & { password: string }>();
const opened = new Map<Language, string[]>();

/** The account's notifications: a payout (a 64-character txid to wrap) and a worker gone quiet. */
async function notifications(userId: number): Promise<void> {
  const alerts: [string, Record<string, unknown>][] = [
    [
      'payout-sent',
      {
        coin: 'BTC',
        amount: '1000000',
        address: 'bcrt1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
        txid: 'ab'.repeat(32),
      },
    ],
    ['worker-offline', { worker: 'rig1', coin: 'BTC', minutes: 25, lastShareAt: new Date().toISOString() }],
  ];
  for (const [kind, payload] of alerts)
    await pool.pool.db.query(
      `INSERT INTO alerts (user_id, kind, dedupe_key, payload, email_status) VALUES ($1, $2, $3, $4::jsonb, 'skipped')`,
      [userId, kind, `dialogs-${kind}-${userId}`, JSON.stringify(payload)],
    );
}

beforeAll(async () => {
  pool = await startTestPool();
  browser = await launchBrowser();
  for (const language of LANGUAGES) {
    const session = await registerAndLogin(pool.baseUrl, `dialogs${language}`, language);
    const fx = new FixtureWriter(pool.pool.db);
    const payeeId = await fx.payee('BTC', { userId: session.user.id });
    const claimed = await fx.worker(payeeId, 'rig1', { coin: 'BTC', lastShareAt: new Date() });
    await fx.worker(payeeId, 'rig2', { coin: 'BTC', lastShareAt: new Date() });
    await api(pool.baseUrl, '/api/miners', {
      token: session.token,
      body: { name: MINER, type: 'asic', algorithm: 'sha256', workerName: 'rig1' },
    });
    await notifications(session.user.id);
    await waitForWorker(pool.baseUrl, session.token, claimed);
    accounts.set(language, session);
  }
});

afterAll(async () => {
  for (const language of LANGUAGES) {
    const names = opened.get(language) ?? [];
    process.stdout.write(`Dialogs at ${PHONE} px, ${language} (${names.length}): ${names.join(', ')}\n`);
  }
  await browser?.close();
  await pool?.stop();
});

/**
 * Where a dialog sits against the viewport, whether it scrolls sideways itself, and what inside it
 * sticks out past its edges (an element in a box that scrolls sideways on purpose, as a table's
 * wrapper does, is not counted).
 */
function dialogFit(dialog: Locator) {
  return dialog.evaluate((root) => {
    const box = root.getBoundingClientRect();
    const inScroller = (element: Element): boolean => {
      for (let up = element.parentElement; up && up !== root; up = up.parentElement)
        if (['auto', 'scroll'].includes(getComputedStyle(up).overflowX)) return true;
      return false;
    };
    const inside: string[] = [];
    for (const element of Array.from(root.querySelectorAll('*'))) {
      if (inScroller(element)) continue;
      const rect = element.getBoundingClientRect();
      if (rect.width > 0 && (rect.right > box.right + 1 || rect.left < box.left - 1))
        inside.push(`${element.tagName.toLowerCase()}.${String(element.className).split(' ').join('.')}`);
    }
    return {
      left: Math.round(box.left),
      right: Math.round(box.right),
      sideways: root.scrollWidth - root.clientWidth,
      inside: inside.slice(0, 4),
    };
  });
}

/** A button scrolled into view (within its dialog): inside the viewport and not covered by anything. */
async function reachable(button: Locator): Promise<{ inView: boolean; onTop: boolean }> {
  await button.scrollIntoViewIfNeeded();
  return button.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return {
      inView:
        rect.width > 0 &&
        rect.left >= -1 &&
        rect.right <= window.innerWidth + 1 &&
        rect.top >= -1 &&
        rect.bottom <= window.innerHeight + 1,
      onTop: hit !== null && (hit === element || element.contains(hit)),
    };
  });
}

/** Opens nothing: checks the open `dialog` fits, its buttons are reachable, and takes its picture. */
async function inspect(
  page: Page,
  language: Language,
  name: string,
  dialog: Locator,
  buttons: Locator[],
): Promise<void> {
  await dialog.waitFor({ state: 'visible' });
  await dialog.locator('.spinner').first().waitFor({ state: 'detached' });
  const fit = await dialogFit(dialog);
  const label = `${language} ${name}`;
  expect.soft(fit.left, `${label}: left edge in the viewport`).toBeGreaterThanOrEqual(0);
  expect.soft(fit.right, `${label}: right edge in the viewport`).toBeLessThanOrEqual(PHONE);
  expect.soft(fit.sideways, `${label}: the dialog scrolls sideways`).toBeLessThanOrEqual(1);
  expect.soft(fit.inside, `${label}: sticking out of the dialog`).toEqual([]);
  const page375 = await pageOverflow(page);
  expect.soft(page375.culprits, `${label}: sticking out of the page`).toEqual([]);
  expect.soft(page375.scrollWidth, `${label}: page width`).toBeLessThanOrEqual(PHONE);
  // The picture first, as the dialog opens (the checks below scroll it to its buttons).
  await dialog.scrollIntoViewIfNeeded();
  await screenshot(page, `dialog-${name}-${language}-${PHONE}`, { fullPage: false });
  for (const button of buttons) {
    const reach = await reachable(button);
    const text = (await button.textContent())?.trim() || (await button.getAttribute('aria-label'));
    expect.soft(reach, `${label}: "${text}" reachable`).toEqual({ inView: true, onTop: true });
  }
  const names = opened.get(language) ?? [];
  if (!names.includes(name)) names.push(name);
  opened.set(language, names);
}

/** Closes the dialog with Escape, or with the button given, and waits until it is gone. */
async function close(page: Page, dialog: Locator, how: 'escape' | Locator): Promise<void> {
  if (how === 'escape') await page.keyboard.press('Escape');
  else await how.click();
  await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
}

describe.each(LANGUAGES)('every dialog at 375 px [%s]', (language) => {
  const t = translator(language);
  const dialogNamed = (page: Page, title: string) => page.getByRole('dialog', { name: title, exact: true });
  const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
  const closeButton = (dialog: Locator) => button(dialog, t('common.close'));

  it('opens each one: it fits, its buttons are reachable, Escape or its close button closes it', async () => {
    const session = accounts.get(language);
    if (!session) throw new Error('no account');
    const context = await newContext(browser, pool.baseUrl, {
      language,
      width: PHONE,
      height: HEIGHT,
      session: { token: session.token, user: session.user },
    });
    const page = await context.newPage();
    try {
      await page.goto('/dashboard');
      await page.getByRole('heading', { level: 1, name: t('dashboard.title') }).waitFor();
      await button(page, t('miners.edit', { name: MINER })).waitFor();

      // The top bar's menu (a toggle at 960 px and below): Escape closes it, so does its toggle.
      const toggle = button(page, t('nav.menu'));
      await toggle.click();
      const menu = page.locator('#topbar-menu');
      await inspect(page, language, 'menu', menu, [menu.getByRole('link', { name: t('nav.logout') })]);
      await close(page, menu, 'escape');
      await toggle.click();
      await menu.waitFor({ state: 'visible' });
      await close(page, menu, toggle);

      // The notifications popover under the bell.
      await page.locator('.notif__bell').click();
      const panel = dialogNamed(page, t('notifications.title'));
      await panel.getByRole('listitem').first().waitFor();
      await inspect(page, language, 'notifications', panel, [button(panel, t('notifications.markAllRead'))]);
      await close(page, panel, 'escape');

      // Mining Help: the hint bubble (shown after a few seconds on a page), then the chat panel.
      const hint = page.getByRole('status').filter({ hasText: t('assistant.hint') });
      await hint.waitFor({ timeout: 15_000 });
      await inspect(page, language, 'assistant-hint', hint, [button(hint, t('assistant.getStarted'))]);
      await button(page, t('assistant.button')).click();
      const assistant = dialogNamed(page, t('assistant.title'));
      await inspect(page, language, 'assistant', assistant, [
        assistant.getByLabel(t('assistant.inputLabel')),
        button(assistant, t('assistant.quick.pool')),
      ]);
      await close(page, assistant, 'escape');
      await button(page, t('assistant.button')).click();
      await close(page, assistant, closeButton(assistant));

      // Add Miner, both tabs.
      await button(page, t('dashboard.addMiner')).click();
      const add = dialogNamed(page, t('miners.add.title_asic'));
      await inspect(page, language, 'add-miner', add, [
        button(add, t('miners.add.save')),
        button(add, t('miners.cancel')),
      ]);
      await add.getByRole('tab', { name: t('miners.add.tabGuide') }).click();
      await inspect(page, language, 'add-miner-guide', add, [button(add, t('miners.add.gotIt'))]);
      await close(page, add, 'escape');

      // Find Miner, with the account's own miner found.
      await button(page, t('dashboard.findMiner')).click();
      const find = dialogNamed(page, t('search.title'));
      await find.getByLabel(t('search.label')).fill('rig1');
      await button(find, t('search.button')).click();
      await find.getByText('rig1').first().waitFor();
      await inspect(page, language, 'find-miner', find, [button(find, t('search.button'))]);
      await close(page, find, closeButton(find));

      // The setup guide from each device card; the ASIC one walked to Test Connection.
      for (const device of ['asic', 'gpu', 'cpu'] as const) {
        await page
          .locator('.device-card')
          .filter({ hasText: t(`dashboard.devices.${device}.title`) })
          .click();
        const guide = dialogNamed(page, t('setupGuide.title'));
        await inspect(page, language, `setup-guide-${device}`, guide, [
          button(guide, t('setupGuide.continue')),
        ]);
        if (device === 'asic') {
          for (let step = 1; step <= 3; step += 1) await button(guide, t('setupGuide.continue')).click();
          const test = button(guide, t('setupGuide.step4.test'));
          await test.click();
          await guide.getByRole('progressbar', { name: t('setupGuide.step4.progress') }).waitFor();
          await inspect(page, language, 'test-connection', guide, [closeButton(guide)]);
        }
        await close(page, guide, device === 'gpu' ? closeButton(guide) : 'escape');
      }

      // A declared miner's Edit and Delete.
      await button(page, t('miners.edit', { name: MINER })).click();
      const edit = dialogNamed(page, t('miners.editTitle'));
      await inspect(page, language, 'edit-miner', edit, [
        button(edit, t('miners.saveChanges')),
        button(edit, t('miners.cancel')),
      ]);
      await close(page, edit, closeButton(edit));
      await button(page, t('miners.delete', { name: MINER })).click();
      const remove = dialogNamed(page, t('miners.deleteTitle'));
      await inspect(page, language, 'delete-miner', remove, [
        button(remove, t('miners.deleteButton')),
        button(remove, t('miners.cancel')),
      ]);
      await close(page, remove, 'escape');

      // A live worker no miner claims, declared from its own name.
      await button(page, t('miners.undeclared.declareNamed', { name: 'rig2' })).click();
      const declare = dialogNamed(page, t('miners.add.title_asic'));
      await inspect(page, language, 'declare-miner', declare, [button(declare, t('miners.add.save'))]);
      await close(page, declare, 'escape');

      // Workers: Help, Add Worker (the guide), Edit Worker, the delete confirmation in the row.
      await page.goto('/workers');
      await page.getByRole('heading', { level: 1, name: t('workers.title') }).waitFor();
      await button(page, t('workers.edit', { name: 'rig1' })).waitFor();
      await button(page, t('workers.help')).click();
      const help = dialogNamed(page, t('workers.helpTitle'));
      await inspect(page, language, 'workers-help', help, [closeButton(help)]);
      await close(page, help, 'escape');
      await button(page, t('workers.addWorker')).click();
      const workerGuide = dialogNamed(page, t('setupGuide.title'));
      await inspect(page, language, 'add-worker-guide', workerGuide, [
        button(workerGuide, t('setupGuide.continue')),
      ]);
      await close(page, workerGuide, 'escape');
      await button(page, t('workers.edit', { name: 'rig1' })).click();
      const editWorker = dialogNamed(page, t('workers.editTitle'));
      await inspect(page, language, 'edit-worker', editWorker, [
        button(editWorker, t('workers.saveChanges')),
        button(editWorker, t('workers.cancel')),
      ]);
      await close(page, editWorker, closeButton(editWorker));
      await button(page, t('workers.delete', { name: 'rig1' })).click();
      const confirm = page.getByRole('group', { name: t('workers.delete', { name: 'rig1' }) });
      await inspect(page, language, 'delete-worker', confirm, [
        button(confirm, t('workers.yesDelete')),
        button(confirm, t('workers.cancel')),
      ]);
      await close(page, confirm, button(confirm, t('workers.cancel')));

      // Revenue: Filter and Help.
      await page.goto('/revenue');
      await page.getByRole('heading', { level: 1, name: t('revenue.title') }).waitFor();
      await button(page, t('revenue.filter')).click();
      const filter = dialogNamed(page, t('revenue.filterTitle'));
      await inspect(page, language, 'revenue-filter', filter, [
        button(filter, t('revenue.apply')),
        button(filter, t('revenue.clear')),
      ]);
      await close(page, filter, 'escape');
      await button(page, t('revenue.help')).click();
      const revenueHelp = dialogNamed(page, t('revenue.helpTitle'));
      await inspect(page, language, 'revenue-help', revenueHelp, [closeButton(revenueHelp)]);
      await close(page, revenueHelp, closeButton(revenueHelp));

      // Settings' panels that open in the page, not over it: the 2FA setup (its Cancel closes it), a
      // new API token shown once, a new watcher link, the password form with its errors.
      await page.goto('/settings?tab=security');
      await page.getByRole('switch', { name: t('settings.twoFactor') }).click();
      const tfa = page
        .locator('.tfa')
        .filter({ has: page.getByRole('img', { name: t('settings.tfa.qrAlt') }) });
      await inspect(page, language, 'two-factor-setup', tfa, [
        button(tfa, t('settings.tfa.enable')),
        button(tfa, t('settings.tfa.cancel')),
      ]);
      await close(page, tfa, button(tfa, t('settings.tfa.cancel')));

      await page.goto('/settings?tab=monitoring');
      const tokens = page.getByRole('region', { name: t('monitoring.tokens.title') });
      await tokens.getByLabel(t('monitoring.tokens.name')).fill('Grafana on the rack');
      await tokens.getByLabel(t('settings.wallet.password')).fill(session.password);
      await button(tokens, t('monitoring.tokens.create')).click();
      const secret = tokens.getByRole('status').filter({ hasText: t('monitoring.tokens.createdOnce') });
      await secret.waitFor();
      await inspect(page, language, 'api-token-created', tokens, [
        button(tokens, t('monitoring.tokens.copy')),
      ]);
      const links = page.getByRole('region', { name: t('monitoring.links.title') });
      await links.getByLabel(t('monitoring.links.label')).fill('For my partner');
      await links.getByLabel(t('settings.wallet.password')).fill(session.password);
      await button(links, t('monitoring.links.create')).click();
      const copyLink = button(links, t('monitoring.links.copy', { name: 'For my partner' }));
      await copyLink.waitFor();
      await inspect(page, language, 'watcher-link-created', links, [copyLink]);

      await page.goto('/settings?tab=account');
      const password = page.getByRole('form', { name: t('settings.password.title') });
      await button(password, t('settings.password.submit')).click();
      await password.locator('.field__error').first().waitFor();
      await inspect(page, language, 'change-password', password, [
        button(password, t('settings.password.submit')),
      ]);
    } finally {
      await context.close();
    }
  });

  it("opens the operator console's confirmations: close an alert, settle a held run as sent or failed, lift a ban", async () => {
    const operator = await operatorSession(
      pool,
      await operatorAccount(pool, `dialogsop${language}`, language),
    );
    const runId = await newHeldRun(pool, `dialogs-${language}`);
    const blockHash = (language === 'en' ? 'ef' : 'fe').repeat(32);
    const ip = language === 'en' ? '203.0.113.41' : '203.0.113.42';
    const login = `${operator.user.username}.flood`;
    banLogin(pool, ip, login);
    await new OperatorAlertsRepository(pool.pool.db).raise({
      key: `dialogs-e2e-${language}`,
      // A kind accounting never closes by itself (it closes payout-stuck alerts of runs not stuck).
      kind: 'block-returned',
      coin: 'BTC',
      message: `BTC block ${runId} (${blockHash}) is back on the main chain after its credits were reversed; they are not re-credited automatically`,
    });
    const context = await newContext(browser, pool.baseUrl, {
      language,
      width: PHONE,
      height: HEIGHT,
      session: operator,
    });
    const page = await context.newPage();
    try {
      await page.goto('/operator');
      await page.getByRole('heading', { name: t('operator.title') }).waitFor();
      // An open alert (its message holding a txid to wrap) and the confirmation that closes it.
      await page.getByRole('tab', { name: t('operator.tabs.alerts') }).click();
      const card = page.getByRole('article', { name: 'block-returned' }).filter({ hasText: blockHash });
      await button(card, t('operator.alerts.close')).click();
      const closeAlert = dialogNamed(page, t('operator.alerts.closeTitle'));
      await inspect(page, language, 'operator-close-alert', closeAlert, [
        button(closeAlert, t('operator.confirm')),
      ]);
      await close(page, closeAlert, 'escape');

      await page.getByRole('tab', { name: t('operator.tabs.runs') }).click();
      const run = page
        .locator('tbody tr')
        .filter({ has: page.locator('td:first-child').getByText(runId, { exact: true }) });
      await button(run, t('operator.runs.settleSent')).click();
      const sent = dialogNamed(page, t('operator.runs.sentTitle', { id: runId }));
      await sent.getByLabel(t('operator.runs.txidLabel')).fill('cd'.repeat(32));
      await inspect(page, language, 'operator-settle-sent', sent, [
        button(sent, t('operator.confirm')),
        button(sent, t('common.cancel')),
      ]);
      await close(page, sent, 'escape');
      await button(run, t('operator.runs.settleFailed')).click();
      const failed = dialogNamed(page, t('operator.runs.failedTitle', { id: runId }));
      await inspect(page, language, 'operator-settle-failed', failed, [
        button(failed, t('operator.confirm')),
      ]);
      await close(page, failed, button(failed, t('common.cancel')));

      await page.getByRole('tab', { name: t('operator.tabs.bans') }).click();
      const ban = page.getByRole('row').filter({ hasText: login });
      await button(ban, t('operator.bans.lift')).click();
      const lift = dialogNamed(page, t('operator.bans.liftTitle', { ip }));
      await inspect(page, language, 'operator-lift-ban', lift, [button(lift, t('operator.confirm'))]);
      await close(page, lift, closeButton(lift));
    } finally {
      await context.close();
    }
  });
});
