// Kaspa end to end on a real kaspad simnet dev chain: the home page's Kaspa card shows the pool's
// live kHeavyHash port and leads to /mining/kaspa; the dashboard's ASIC card, on its Kaspa tab,
// leads the setup guide to the same port with what a KS ASIC, lolMiner and BzMiner type, in
// English and Arabic (and at 375 px nothing scrolls sideways); a worker mining real kHeavyHash
// shares there (the project's own Kaspa test miner, subscribing as lolMiner) appears on /workers
// with its hashrate. The pool binds ephemeral ports in tests: the pages show the port
// /api/pool/ports lists (7777 in a real deployment, the contract's PORT_TABLE).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolPorts, WorkerList } from '@manjam/contract';
import { KaspaTestMiner } from '../apps/server/test/support/coins/kaspa/stratum/miner.js';
import { kaspaCommands } from '../apps/web/src/coins/kaspa/commands.js';
import { ensureKaspad } from '../scripts/kaspad.mjs';
import { api, registerAndLogin, type Session } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
import { startTestPool, type TestPool } from './support/pool.js';

const SHARES = 4;

let pool: TestPool;
let browser: Browser;
let session: Session;
let kheavyhashPort: number;

/** Mines `count` accepted kHeavyHash shares (shares, not blocks) as `login`, the way lolMiner signs in. */
async function mine(login: string, worker: string, count: number): Promise<void> {
  const miner = await KaspaTestMiner.connect(kheavyhashPort);
  try {
    await miner.request('mining.subscribe', ['lolMiner 1.88', 'EthereumStratum/1.0.0']);
    const auth = await miner.request('mining.authorize', [login, 'x']);
    expect(auth.result).toBe(true);
    await miner.jobCount(1);
    let accepted = 0;
    while (accepted < count) {
      const job = miner.jobs.at(-1)!;
      const nonce = miner.find(job, (pow, share) => pow <= share, 100_000);
      const reply = await miner.submit(worker, job, nonce);
      // A new DAG tip between hashing and submitting can make the job stale: mine on the newest.
      if (reply.result === true) accepted += 1;
    }
  } finally {
    miner.close();
  }
}

/** Sets the account's language (the web app adopts it after sign-in). */
const accountLanguage = (language: Language) =>
  api(pool.baseUrl, '/api/settings', { method: 'PUT', token: session.token, body: { language } });

const workers = () => api<WorkerList>(pool.baseUrl, '/api/workers', { token: session.token });

const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

beforeAll(async () => {
  const installed = await ensureKaspad({ quiet: true });
  if (!installed.ok) throw new Error(installed.reason);
  pool = await startTestPool({ coins: ['KAS'] });
  if (pool.kheavyhashPort === undefined) throw new Error('the pool opened no kHeavyHash port');
  kheavyhashPort = pool.kheavyhashPort;
  browser = await launchBrowser();
  session = await registerAndLogin(pool.baseUrl, 'kas', 'en');
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await pool?.stop();
});

describe.each<Language>(['en', 'ar'])('a Kaspa miner in %s', (language) => {
  const t = translator(language);

  it('follows the home Kaspa card to /mining/kaspa on the live kHeavyHash port, with the KS ASIC, lolMiner and BzMiner settings', async () => {
    const ports = await api<PoolPorts>(pool.baseUrl, '/api/pool/ports');
    expect(ports.ports.find((p) => p.algorithm === 'kheavyhash')).toMatchObject({
      name: 'kHeavyHash',
      port: kheavyhashPort,
      live: true,
    });
    const context = await newContext(browser, pool.baseUrl, { language, width: 375 });
    const page = await context.newPage();
    try {
      await page.goto('/');
      const card = page.locator('li', {
        has: page.getByRole('heading', { name: t('home.algorithms.kaspa') }),
      });
      await card.getByText(String(kheavyhashPort), { exact: true }).waitFor();
      await card.getByRole('link', { name: t('algorithm.facts') }).click();
      await page.waitForURL('**/mining/kaspa');
      await page.getByText(t('algorithm.live')).waitFor();
      const host = new URL(pool.baseUrl).hostname;
      await page.getByText(`stratum+tcp://${host}:${kheavyhashPort}`, { exact: true }).waitFor();
      const commands = kaspaCommands(host, kheavyhashPort, 'username.worker_name');
      await page.getByText(commands.lolminer, { exact: true }).waitFor();
      await page.getByText(commands.bzminer, { exact: true }).waitFor();
      await screenshot(page, `kaspa-mining-kaspa-${language}-375`);
      expect(await fits(page), '/mining/kaspa at 375 px').toBe(true);
      await page.goto('/mining/calculator');
      await page.getByRole('combobox', { name: t('calculator.coin') }).selectOption('KAS');
      expect(await page.getByRole('combobox', { name: t('calculator.unit') }).inputValue()).toBe('GH/s');
      await page.getByText(t('calculator.formulaKaspa')).waitFor();
      await screenshot(page, `kaspa-calculator-${language}-375`);
      expect(await fits(page), '/mining/calculator at 375 px').toBe(true);
    } finally {
      await context.close();
    }
  });

  it('follows the ASIC card to Kaspa in the setup guide: the live port, account.worker and the GPU command lines', async () => {
    const ports = await api<PoolPorts>(pool.baseUrl, '/api/pool/ports');
    const url = `stratum+tcp://${ports.host}:${kheavyhashPort}`;
    const username = `${session.user.username}.ks0`;
    const commands = kaspaCommands(ports.host, kheavyhashPort, username);
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
          .getByRole('button', { name: new RegExp(t('dashboard.devices.asic.title')) })
          .first()
          .click();
        const guide = page.getByRole('dialog');
        await guide.getByText(t('dashboard.devices.asic.body')).waitFor();
        await guide.getByRole('tab', { name: t('setupGuide.filters.kaspa') }).click();
        const selected = guide.getByRole('button', { name: t('setupGuide.select', { name: 'kHeavyHash' }) });
        await expect.poll(() => selected.getAttribute('aria-pressed')).toBe('true');
        await guide.getByLabel(t('setupGuide.step1.label')).fill('ks0');
        for (let step = 1; step <= 2; step++)
          await guide
            .getByRole('button', { name: t('setupGuide.continue') })
            .first()
            .click();
        await guide.getByText(url, { exact: true }).waitFor();
        await guide.getByText(username, { exact: true }).waitFor();
        const miners = guide.getByRole('region', { name: t('setupGuide.kaspa.title') });
        await miners.getByText(commands.lolminer, { exact: true }).waitFor();
        await miners.getByText(commands.bzminer, { exact: true }).waitFor();
        expect(await miners.textContent()).toContain('KS0');
        await screenshot(page, `kaspa-guide-${language}-${width}`);
        expect(await fits(page), `the guide at ${width} px`).toBe(true);
      } finally {
        await context.close();
      }
    }
  });
});

describe('a worker mining on the kHeavyHash port', () => {
  it('appears on /workers as a Kaspa worker with its hashrate, in English and Arabic', async () => {
    await mine(`${session.user.username}.ks0`, 'ks0', SHARES);
    // The share writer stores batches in the background: wait until the worker has a hashrate.
    const deadline = Date.now() + 60_000;
    let worker = (await workers()).workers.find((w) => w.name === 'ks0');
    while (!worker || worker.hashrate <= 0) {
      if (Date.now() > deadline) throw new Error('the kHeavyHash shares were not stored in 60 s');
      await new Promise((resolve) => setTimeout(resolve, 500));
      worker = (await workers()).workers.find((w) => w.name === 'ks0');
    }
    expect(worker.algorithm).toBe('kaspa');
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
        const link = page.getByRole('link', { name: t('workers.viewDetails', { name: 'ks0' }) });
        await link.waitFor();
        const row = page.locator('tr', { has: link });
        expect(await row.textContent()).toContain(t('miners.algorithms.kaspa'));
        expect(await row.textContent()).toMatch(/\d [kMGT]?H\/s/);
        await screenshot(page, `kaspa-workers-${language}`);
      } finally {
        await context.close();
      }
    }
    await accountLanguage('en');
  });
});
