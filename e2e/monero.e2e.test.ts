// Monero for CPU miners, end to end on a real monerod regtest chain: the dashboard's CPU card opens
// the setup guide on RandomX with the pool's live RandomX port and the XMRig command line, in
// English and Arabic (and at 375 px nothing scrolls sideways); a worker mining real RandomX hashes
// there (the project's own Monero test miner over the addon) appears on /workers with a RandomX
// hashrate in H/s. The pool binds ephemeral ports in tests, as for SHA-256 and Scrypt: the guide
// shows the port /api/pool/ports lists (1111 in a real deployment, the contract's PORT_TABLE).
import { RandomXPool } from '@manjam/randomx';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolPorts, WorkerList } from '@manjam/contract';
import { MoneroTestMiner } from '../apps/server/test/support/coins/monero/stratum/miner.js';
import { api, registerAndLogin, type Session } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
import { startTestPool, type TestPool } from './support/pool.js';
import { CPU_START_PASSWORD } from '../apps/web/src/features/setup-guide/algorithms.js';

/** Hashes per share the test worker asks for in its password (RandomX difficulty counts hashes). */
const SHARE_DIFFICULTY = 64;
const SHARES = 6;

let pool: TestPool;
let browser: Browser;
let session: Session;
let randomxPort: number;
const randomx = new RandomXPool({ threads: 1 });

/** Mines `count` accepted shares at d=SHARE_DIFFICULTY as `login`, the way XMRig does it. */
async function mine(login: string, count: number): Promise<void> {
  const miner = await MoneroTestMiner.connect(randomxPort, randomx);
  try {
    const reply = await miner.login(login, `x,d=${SHARE_DIFFICULTY}`);
    expect(reply.error).toBeNull();
    let accepted = 0;
    while (accepted < count) {
      const share = await miner.mine((s) => s.difficulty >= miner.difficulty, { parallel: 1 });
      const known = miner.notifications.length;
      const submitted = await miner.submit(share);
      // A new tip between hashing and submitting makes the share stale: mine on the new job.
      if (submitted.error) continue;
      accepted += 1;
      // monerod's dev chain runs at difficulty 1, so every share is also a block: like XMRig, take
      // the new tip's job before mining on (a share on the old one would be stale).
      if (miner.job?.job_id === share.job.job_id)
        await Promise.race([
          miner.nextJob((job) => miner.notifications.indexOf(job) >= known),
          new Promise((resolve) => setTimeout(resolve, 5_000)),
        ]);
    }
  } finally {
    miner.close();
  }
}

/** Sets the account's language (the web app adopts it after sign-in). */
const accountLanguage = (language: Language) =>
  api(pool.baseUrl, '/api/settings', { method: 'PUT', token: session.token, body: { language } });

const workers = () => api<WorkerList>(pool.baseUrl, '/api/workers', { token: session.token });

beforeAll(async () => {
  pool = await startTestPool({ coins: ['XMR'] });
  if (pool.randomxPort === undefined) throw new Error('the pool opened no RandomX port');
  randomxPort = pool.randomxPort;
  browser = await launchBrowser();
  session = await registerAndLogin(pool.baseUrl, 'cpu', 'en');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await pool?.stop();
  await randomx.close();
});

describe.each<Language>(['en', 'ar'])('a CPU miner in %s', (language) => {
  const t = translator(language);

  it('follows the CPU card to the live RandomX port, with XMRig, the account.worker username and d= in hashes', async () => {
    const ports = await api<PoolPorts>(pool.baseUrl, '/api/pool/ports');
    const row = ports.ports.find((p) => p.algorithm === 'randomx');
    expect(row).toMatchObject({ name: 'RandomX', port: randomxPort, live: true });
    const url = `stratum+tcp://${ports.host}:${randomxPort}`;
    // The account's language: the web app adopts it after sign-in, whatever the browser had stored.
    await accountLanguage(language);
    for (const width of [1280, 375]) {
      const context = await newContext(browser, pool.baseUrl, {
        language,
        width,
        session: { token: session.token, user: session.user },
      });
      const page = await context.newPage();
      try {
        await page.goto('/dashboard');
        await page
          .getByRole('button', { name: new RegExp(t('dashboard.devices.cpu.title')) })
          .first()
          .click();
        const guide = page.getByRole('dialog');
        await guide.getByText(t('dashboard.devices.cpu.body')).waitFor();
        const selected = guide.getByRole('button', { name: t('setupGuide.select', { name: 'RandomX' }) });
        expect(await selected.getAttribute('aria-pressed')).toBe('true');
        await guide.getByLabel(t('setupGuide.step1.label')).fill('desk');
        for (let step = 1; step <= 2; step++)
          await guide
            .getByRole('button', { name: t('setupGuide.continue') })
            .first()
            .click();
        await guide.getByText(url, { exact: true }).waitFor();
        await guide.getByText(`${session.user.username}.desk`, { exact: true }).waitFor();
        await guide
          .getByText(`xmrig -o ${url} -u ${session.user.username}.desk -p ${CPU_START_PASSWORD}`, {
            exact: true,
          })
          .waitFor();
        await guide
          .getByText(t('setupGuide.step3.cpuDifficulty', { password: CPU_START_PASSWORD }))
          .waitFor();
        await screenshot(page, `monero-guide-${language}-${width}`);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
          `the guide at ${width} px`,
        ).toBe(true);
      } finally {
        await context.close();
      }
    }
  });
});

describe.each<Language>(['en', 'ar'])('the RandomX pages in %s', (language) => {
  const t = translator(language);

  it('show /mining/randomx live on the RandomX port and an XMR estimate in kH/s with the difficulty counted in hashes, with nothing scrolling sideways at 375 px', async () => {
    const context = await newContext(browser, pool.baseUrl, { language, width: 375 });
    const page = await context.newPage();
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    try {
      await page.goto('/mining/randomx');
      await page.getByText(t('algorithm.live')).waitFor();
      await page.getByText(`stratum+tcp://127.0.0.1:${randomxPort}`, { exact: true }).waitFor();
      await page.getByText(t('algorithm.cpuPassword')).waitFor();
      await screenshot(page, `monero-mining-randomx-${language}-375`);
      expect(await fits(), '/mining/randomx at 375 px').toBe(true);
      await page.goto('/mining/calculator');
      await page.getByRole('combobox', { name: t('calculator.coin') }).selectOption('XMR');
      expect(await page.getByRole('combobox', { name: t('calculator.unit') }).inputValue()).toBe('kH/s');
      await page.getByText(t('calculator.formulaMonero')).waitFor();
      // 100 kH/s (the XMR default) for a day at difficulty 300 G (300e9 hashes a block): 0.0288
      // blocks of 0.6 XMR, minus the pool's fee.
      await page.getByRole('textbox', { name: t('calculator.difficulty') }).fill('300000000000');
      await page.getByRole('textbox', { name: t('calculator.fee') }).fill('1');
      await page.getByRole('table').getByText('0.0171072 XMR').first().waitFor();
      await screenshot(page, `monero-calculator-${language}-375`);
      expect(await fits(), '/mining/calculator at 375 px').toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe('a worker mining on the RandomX port', () => {
  it('appears on /workers with its RandomX hashrate in H/s, in English and Arabic', async () => {
    await mine(`${session.user.username}.desk`, SHARES);
    // The share writer stores batches in the background: wait until the worker has a hashrate.
    const deadline = Date.now() + 60_000;
    let worker = (await workers()).workers.find((w) => w.name === 'desk');
    while (!worker || worker.hashrate <= 0) {
      if (Date.now() > deadline) throw new Error('the RandomX shares were not stored in 60 s');
      await new Promise((resolve) => setTimeout(resolve, 500));
      worker = (await workers()).workers.find((w) => w.name === 'desk');
    }
    expect(worker.algorithm).toBe('randomx');
    // SHARES shares of SHARE_DIFFICULTY hashes over the 10-minute window: a CPU-sized figure.
    expect(worker.hashrate).toBeLessThan(1_000);
    for (const language of ['en', 'ar'] as const) {
      const t = translator(language);
      await accountLanguage(language);
      const context = await newContext(browser, pool.baseUrl, {
        language,
        session: { token: session.token, user: session.user },
      });
      const page = await context.newPage();
      try {
        await page.goto('/workers');
        const link = page.getByRole('link', { name: t('workers.viewDetails', { name: 'desk' }) });
        await link.waitFor();
        const row = page.locator('tr', { has: link });
        expect(await row.textContent()).toContain('RandomX');
        expect(await row.textContent()).toMatch(/\d H\/s/);
        const totals = page.locator('main').getByRole('region', { name: 'RandomX' });
        expect(await totals.textContent()).toMatch(/\d H\/s/);
        await screenshot(page, `monero-workers-${language}`);
      } finally {
        await context.close();
      }
    }
    await api(pool.baseUrl, '/api/settings', {
      method: 'PUT',
      token: session.token,
      body: { language: 'en' },
    });
  });
});
