// A new miner's first hour, in English and Arabic, against the real pool: Test Connection shows
// the stages in order as a real Stratum miner connects (asking for its own starting difficulty
// with d= in the password), is authorized, and has its first share accepted; meanwhile the
// worker shows as connected without shares, not "Offline · Never".
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StratumTestClient } from '../apps/server/src/stratum/testing/client.js';
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

describe.each<Language>(['en', 'ar'])('the first hour in %s', (language) => {
  const t = translator(language);

  it('shows connected and authorized, then the first accepted share, in order, for a miner that asked for d= in its password', async () => {
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
      await guide.getByText(t('setupGuide.step3.startDifficulty')).waitFor();
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

      // Stage 2: connected and authorized, with a starting difficulty from the password (within the port's 1e-7..1e9).
      await miner.subscribe();
      expect((await miner.authorize(`${session.user.username}.cpu1`, 'x,d=0.000002')).result).toBe(true);
      const job = await miner.waitForJob();
      expect(job.difficulty).toBe(0.000002);
      await authorized.filter({ hasText: t('setupGuide.step4.stageDone') }).waitFor({ timeout: 10_000 });
      expect(await shared.filter({ hasText: t('setupGuide.step4.stagePending') }).count()).toBe(1);
      await guide
        .getByText(t('setupGuide.step4.advice.authorized', { worker: '\u2066cpu1\u2069' }))
        .waitFor();
      await screenshot(page, `first-hour-${language}-authorized`);

      // The declared miner says connected without shares, not offline.
      const api2 = await api<{ miners: { status: string }[] }>(pool.baseUrl, '/api/miners', {
        token: session.token,
      });
      expect(api2.miners.map((m) => m.status)).toEqual(['connected']);

      // Stage 3: the first accepted share.
      const reply = await miner.submit(
        `${session.user.username}.cpu1`,
        miner.findShare(miner.job ?? job, 'sha256d'),
      );
      expect(reply.error).toBeNull();
      await shared.filter({ hasText: t('setupGuide.step4.stageDone') }).waitFor({ timeout: 30_000 });
      await guide.getByText(t('setupGuide.step4.success')).waitFor();
      await screenshot(page, `first-hour-${language}-sharing`);
    } finally {
      await miner.close();
      await context.close();
    }
  });
});
