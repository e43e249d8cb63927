// A new miner's first hour, in English and Arabic, against the real pool: Test Connection shows
// the stages in order as a real Stratum miner connects (asking for its own starting difficulty
// with d= in the password), is authorized, and has its first share accepted; meanwhile the
// worker is listed on /workers as connected without shares, not "Offline · Never". Then money from the first share:
// today's accrued credit appears beside the balance, Rewards does not say "No rewards yet", and
// the dashboard asks for a payout address until one is set.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outsideAddress } from '../apps/server/test/support/accounting/regtest.js';
import { StratumTestClient } from '../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { api, registerAndLogin } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
import { startTestPool, type TestPool } from './support/pool.js';
import { LOW_START_PASSWORD } from '../apps/web/src/features/setup-guide/algorithms.js';

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

describe.each<Language>(['en', 'ar'])('the first hour in %s', (language) => {
  const t = translator(language);

  it("shows connected, authorized and the first accepted share in order for a miner that asked for d=, then today's accrued credit and the payout-address prompt until an address is set", async () => {
    const session = await registerAndLogin(pool.baseUrl, `first${language}`, language);
    await api(pool.baseUrl, '/api/miners', {
      token: session.token,
      body: { name: 'Laptop', type: 'cpu', algorithm: 'sha256', workerName: 'cpu1' },
    });
    const context = await newContext(browser, pool.baseUrl, {
      language,
      session: { token: session.token, user: session.user },
    });
    const page = await context.newPage();
    const miner = await StratumTestClient.connect(pool.stratumPort, { host: '127.0.0.1' });
    try {
      await page.goto('/dashboard');
      await page
        .getByRole('button', { name: new RegExp(t('dashboard.devices.asic.title')) })
        .first()
        .click();
      const guide = page.getByRole('dialog');
      await guide.getByLabel(t('setupGuide.step1.label')).fill('cpu1');
      await guide
        .getByRole('button', { name: t('setupGuide.continue') })
        .first()
        .click();
      await guide
        .getByRole('button', { name: t('setupGuide.continue') })
        .first()
        .click();
      // The guide tells CPU/GPU miners about d= (here on the SHA-256 port the test miner uses).
      await guide
        .getByText(t('setupGuide.step3.startDifficulty', { lowPassword: LOW_START_PASSWORD }))
        .waitFor();
      await guide
        .getByRole('button', { name: t('setupGuide.continue') })
        .first()
        .click();
      await guide.getByRole('button', { name: t('setupGuide.step4.test') }).click();
      const stages = guide.getByRole('list', { name: t('setupGuide.step4.stagesLabel') });
      const authorized = stages
        .getByRole('listitem')
        .filter({ hasText: t('setupGuide.step4.stage.authorized') });
      const shared = stages.getByRole('listitem').filter({ hasText: t('setupGuide.step4.stage.sharing') });
      await authorized.filter({ hasText: t('setupGuide.step4.stagePending') }).waitFor();

      // Stage 2: connected and authorized, with a starting difficulty from the password. Its
      // d=0.000002 lies above regtest's network difficulty (about 4.7e-10), so it is held at the
      // port's minimum, 1e-7 (stratum/vardiff.ts capAt: above the network's, a miner would discard
      // its own blocks).
      await miner.subscribe();
      expect((await miner.authorize(`${session.user.username}.cpu1`, 'x,d=0.000002')).result).toBe(true);
      const job = await miner.waitForJob();
      expect(job.difficulty).toBe(1e-7);
      await authorized.filter({ hasText: t('setupGuide.step4.stageDone') }).waitFor({ timeout: 10_000 });
      expect(await shared.filter({ hasText: t('setupGuide.step4.stagePending') }).count()).toBe(1);
      await guide
        .getByText(
          t('setupGuide.step4.advice.authorized', {
            worker: '\u2066cpu1\u2069',
            lowPassword: LOW_START_PASSWORD,
          }),
        )
        .waitFor();
      await screenshot(page, `first-hour-${language}-authorized`);

      // The declared miner says connected without shares, not offline.
      const api2 = await api<{ miners: { status: string }[] }>(pool.baseUrl, '/api/miners', {
        token: session.token,
      });
      expect(api2.miners.map((m) => m.status)).toEqual(['connected']);
      // And its worker row is on /workers already, connected and waiting for the first share.
      const workersPage = await context.newPage();
      await workersPage.goto('/workers');
      const row = workersPage.getByRole('row').filter({ hasText: 'cpu1' });
      await row.getByText(t('workers.waitingForShare')).waitFor({ timeout: 15_000 });
      expect(await row.getByText(t('workers.never')).count()).toBe(0);
      await workersPage.close();

      // Stage 3: the first accepted share.
      const reply = await miner.submit(
        `${session.user.username}.cpu1`,
        miner.findShare(miner.job ?? job, 'sha256d'),
      );
      expect(reply.error).toBeNull();
      await shared.filter({ hasText: t('setupGuide.step4.stageDone') }).waitFor({ timeout: 30_000 });
      await guide.getByText(t('setupGuide.step4.success')).waitFor();
      await screenshot(page, `first-hour-${language}-sharing`);

      // Money from the first share: the dashboard asks for a payout address while none is set,
      // and today's accrued credit appears under the unpaid balance once accounting credits it.
      await page.goto('/dashboard');
      const prompt = page.getByRole('link', { name: t('revenue.money.noAddressAction') });
      await prompt.waitFor();
      expect(await prompt.getAttribute('href')).toBe('/settings?tab=wallet');
      await expect
        .poll(
          async () =>
            (
              await api<{ unsettled: { accrued: string } }>(pool.baseUrl, '/api/dashboard', {
                token: session.token,
              })
            ).unsettled.accrued,
          { timeout: 60_000, interval: 1_000 },
        )
        .not.toBe('0');
      await page.reload();
      const balance = page.getByRole('region', { name: t('dashboard.cards.unpaidBalance', { coin: 'BTC' }) });
      const accrued = balance
        .locator('.unsettled__figures > div')
        .filter({ hasText: t('revenue.money.accrued') });
      await accrued.waitFor();
      expect(await accrued.locator('dd').innerText()).toMatch(/[1-9١-٩]/);

      // Revenue: the balance with today's credits, and Rewards does not say "No rewards yet".
      await page.goto('/revenue');
      await page.getByText(t('revenue.money.emptyRewardsAccrued', { time: '' }).slice(0, 20)).waitFor();
      expect(await page.getByText(t('revenue.emptyRewards')).count()).toBe(0);
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/revenue');
        await page.locator('.money-summary').waitFor();
        await screenshot(page, `first-hour-${language}-${width}-revenue`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        );
        await page.goto('/workers');
        await page.getByRole('button', { name: t('workers.addWorker') }).click();
        await page.getByRole('dialog').waitFor();
        await screenshot(page, `first-hour-${language}-${width}-guide`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });

      // Once an address is set the prompt goes away.
      await api(pool.baseUrl, '/api/settings/payout-address', {
        method: 'PUT',
        token: session.token,
        body: {
          address: outsideAddress('BTC', `first-hour-${language}`),
          coin: 'BTC',
          password: session.password,
        },
      });
      await page.goto('/dashboard');
      await balance.waitFor();
      expect(await page.getByRole('link', { name: t('revenue.money.noAddressAction') }).count()).toBe(0);
    } finally {
      await miner.close();
      await context.close();
    }
  });
});
