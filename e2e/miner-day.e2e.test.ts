// The miner's day (issue 27), in English and Arabic, on a desktop and a phone: a worker mining
// with cpuminer's agent and no declared miner is offered on the dashboard (never "no miners"),
// declared with one click from its own name, then listed under its miner; the workers screens
// call it a CPU (what its software said); and the time zone chosen in Settings is the one the
// hashrate chart names.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StratumTestClient } from '../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { api, registerAndLogin } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
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

const SHAPES = [
  { language: 'en', width: 1280 },
  { language: 'ar', width: 375 },
] as const satisfies readonly { language: Language; width: number }[];

describe.each(SHAPES)('the miner day in $language at $width px', ({ language, width }) => {
  const t = translator(language);

  it('offers a live worker no miner claims, declares it from its own name, calls it a CPU and shows times in the chosen zone', async () => {
    const session = await registerAndLogin(pool.baseUrl, `day${language}`, language);
    const login = `${session.user.username}.rig7`;
    const miner = await StratumTestClient.connect(pool.stratumPort, { host: '127.0.0.1' });
    try {
      await miner.subscribe('cpuminer/2.5.1');
      expect((await miner.authorize(login, 'x')).result).toBe(true);
      const job = await miner.waitForJob();
      expect((await miner.submit(login, miner.findShare(miner.job ?? job, 'sha256d'))).error).toBeNull();
      // The share is stored and the agent recorded (the recorder writes every few seconds).
      await expect
        .poll(
          async () =>
            (
              await api<{ workers: { name: string; type: string }[] }>(pool.baseUrl, '/api/workers', {
                token: session.token,
              })
            ).workers.find((w) => w.name === 'rig7')?.type,
          { timeout: 30_000, interval: 500 },
        )
        .toBe('cpu');

      const context = await newContext(browser, pool.baseUrl, {
        language,
        width,
        session: { token: session.token, user: session.user },
      });
      const page = await context.newPage();
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: t('miners.undeclared.title') }).waitFor();
      expect(await page.getByText(t('miners.emptyAll')).count()).toBe(0);
      await page.getByText(t('miners.emptyWithWorkers_one')).waitFor();
      await screenshot(page, `miner-day-${language}-${width}-undeclared`);
      await page.getByRole('button', { name: t('miners.undeclared.declareNamed', { name: 'rig7' }) }).click();
      const dialog = page.getByRole('dialog');
      expect(await dialog.getByLabel(t('miners.add.name')).inputValue()).toBe('rig7');
      expect(await dialog.getByLabel(t('miners.add.worker')).inputValue()).toBe('rig7');
      await dialog.getByRole('button', { name: t('miners.add.save') }).click();
      await dialog.getByRole('button', { name: t('miners.add.gotIt') }).click();
      const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'rig7' }) });
      await row.waitFor();
      expect(await page.getByRole('heading', { name: t('miners.undeclared.title') }).count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(page, `miner-day-${language}-${width}-declared`);

      // Settings -> Language: Riyadh time; the hashrate chart then names GMT+3.
      await page.goto('/settings?tab=language');
      await page.getByLabel(t('settings.timeZone')).selectOption('Asia/Riyadh');
      await page.getByRole('button', { name: t('settings.save') }).click();
      await page.getByText(t('settings.saved')).waitFor();
      await page.goto('/dashboard');
      const zone = language === 'ar' ? 'غرينتش+3' : 'GMT+3';
      // The chart is a canvas: its accessible summary names the zone its hours are in.
      await page.locator(`[role="img"][aria-label*="${zone}"]`).first().waitFor();
      await screenshot(page, `miner-day-${language}-${width}-zone`);
      await context.close();
    } finally {
      await miner.close();
    }
  });
});
