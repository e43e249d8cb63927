// Hashrate like the best pools, for a user mining on both algorithms (a real SHA-256 worker on the
// bcoin chain and a real Scrypt worker on a litecoind pair): per algorithm, never summed; the
// same real-time and 24 h figures on the dashboard, the sidebar, the workers page, the worker
// detail page and in the assistant; each says how old it is (its newest share counted, in the
// browser's zone); chart axes name their time zone; Show Hashrate hides them.
// Screenshots of the dashboard, workers and worker detail in en and ar at 1280 and 375 px.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlgorithmHashrate, Dashboard, MinerList, User, WorkerList } from '@manjam/contract';
import type { Algorithm } from '@manjam/protocol';
import { formatHashrate } from '../apps/server/src/services/shared/format.js';
import { StratumTestClient } from '../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { api, registerAndLogin, type Session } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
import { startTestPool, type TestPool } from './support/pool.js';

let pool: TestPool;
let browser: Browser;
let session: Session;

async function mine(port: number, login: string, algorithm: Algorithm, count: number): Promise<void> {
  const client = await StratumTestClient.connect(port, { host: '127.0.0.1' });
  try {
    await client.subscribe();
    expect((await client.authorize(login)).result).toBe(true);
    let accepted = 0;
    while (accepted < count) {
      const job = client.job ?? (await client.waitForJob());
      const reply = await client.submit(login, client.findShare(job, algorithm));
      if (reply.error?.[0] === 21) continue;
      expect(reply.error).toBeNull();
      accepted += 1;
    }
  } finally {
    await client.close();
  }
}

const workers = () => api<WorkerList>(pool.baseUrl, '/api/workers', { token: session.token });

/** The account's language: the web app adopts it after sign-in, whatever the browser had stored. */
const accountLanguage = (language: Language) =>
  api(pool.baseUrl, '/api/settings', { method: 'PUT', token: session.token, body: { language } });

beforeAll(async () => {
  pool = await startTestPool({ coins: ['LTC'] });
  browser = await launchBrowser();
  session = await registerAndLogin(pool.baseUrl, 'twoalgos', 'en');
  const scryptPort = pool.scryptPort;
  if (scryptPort === undefined) throw new Error('no Scrypt port');
  await mine(pool.stratumPort, `${session.user.username}.s19`, 'sha256d', 3);
  await mine(scryptPort, `${session.user.username}.l7`, 'scrypt', 5);
  // The share writer stores batches in the background: wait until both algorithms show.
  const deadline = Date.now() + 90_000;
  while ((await workers()).totals.hashrates.filter((h) => h.realtime > 0).length < 2) {
    if (Date.now() > deadline) throw new Error('the shares of both workers were not stored in 90 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // Then until every share is stored: the newest share counted stays the same over three reads 6 s
  // apart (the figures themselves keep moving: a worker younger than a window is averaged over the
  // time since its first share, which grows with every read).
  const counted = async () =>
    JSON.stringify((await workers()).totals.hashrates.map((h) => [h.algorithm, h.countedUpTo]));
  const reads = [await counted()];
  while (reads.length < 3 || new Set(reads.slice(-3)).size > 1) {
    if (Date.now() > deadline) throw new Error('the hashrate figures did not settle in 90 s');
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    reads.push(await counted());
  }
});

afterAll(async () => {
  await browser?.close();
  await pool?.stop();
});

describe('a user mining on both SHA-256 and Scrypt', () => {
  it('gets per-algorithm figures that agree between the dashboard, /api/me, workers and the assistant', async () => {
    const list = await workers();
    const dashboard = await api<Dashboard>(pool.baseUrl, '/api/dashboard', { token: session.token });
    const me = await api<User>(pool.baseUrl, '/api/me', { token: session.token });
    const realtime = (figures: AlgorithmHashrate[]) => figures.map((h) => [h.algorithm, h.realtime]);
    expect(list.totals.hashrates.map((h) => h.algorithm)).toEqual(['sha256', 'scrypt']);
    expect(realtime(dashboard.hashrates)).toEqual(realtime(list.totals.hashrates));
    expect(realtime(me.hashrates)).toEqual(realtime(list.totals.hashrates));
    const { reply } = await api<{ reply: string }>(pool.baseUrl, '/api/assistant', {
      token: session.token,
      body: { message: 'what is my hashrate', language: 'en' },
    });
    for (const figures of list.totals.hashrates)
      expect(reply).toContain(
        `${figures.coin} (${figures.algorithm === 'sha256' ? 'SHA-256' : 'Scrypt'}): ${formatHashrate(figures.realtime)} over the last 10 minutes`,
      );
  });

  /** A time as the web app says how old figures are (lib/format formatAsOf): "14:05" today, else date and time. */
  const asOf = (page: Page, at: string, language: Language): Promise<string> =>
    page.evaluate(
      ([iso, locale]) => {
        const date = new Date(iso);
        const day = new Intl.DateTimeFormat('en-CA');
        return day.format(date) === day.format(new Date())
          ? new Intl.DateTimeFormat(locale, { timeStyle: 'short', hourCycle: 'h23' }).format(date)
          : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
      },
      [at, language === 'ar' ? 'ar-u-nu-latn' : 'en'] as const,
    );

  /** "Shares counted up to 14:05", or "No shares since 13:40" once no share came in 10 minutes. */
  const ageKey = (recent: boolean) =>
    recent ? 'dashboard.hashrates.countedUpTo' : 'dashboard.hashrates.noSharesSince';

  /** The real-time and 24 h texts of one algorithm's figures in a container. */
  async function figures(page: Page, container: string, algorithm: string): Promise<string[]> {
    const region = page.locator(container).getByRole('region', { name: algorithm, exact: true });
    return region.locator('dd').allInnerTexts();
  }

  it.each(['en', 'ar'] as const)(
    'shows the same figures on the dashboard, sidebar and workers page in %s, and a worker chart in the browser zone',
    async (language: Language) => {
      const t = translator(language);
      await accountLanguage(language);
      const context = await newContext(browser, pool.baseUrl, {
        language,
        session: { token: session.token, user: session.user },
      });
      const page = await context.newPage();
      try {
        const seen = new Map<string, string[]>();
        const ages = new Map<string, string>();
        await page.goto('/dashboard');
        const card = page.getByRole('region', { name: t('dashboard.cards.hashrate'), exact: true });
        await card.getByRole('region', { name: 'Scrypt' }).waitFor();
        await page.locator('aside.sidebar').getByRole('region', { name: 'Scrypt' }).waitFor();
        for (const algorithm of ['SHA-256', 'Scrypt']) {
          const onDashboard = await figures(page, 'main', algorithm);
          expect(onDashboard).toHaveLength(2);
          expect(onDashboard.every((text) => /H\/s/.test(text))).toBe(true);
          expect(await figures(page, 'aside.sidebar', algorithm)).toEqual(onDashboard);
          seen.set(algorithm, onDashboard);
        }
        // Each algorithm says how old its figures are: the newest share counted, read with them.
        const { hashrates } = await api<Dashboard>(pool.baseUrl, '/api/dashboard', { token: session.token });
        expect(hashrates).toHaveLength(2);
        for (const h of hashrates) {
          if (!h.countedUpTo) throw new Error(`no share counted on ${h.algorithm}`);
          const line = card
            .getByRole('region', { name: h.algorithm === 'sha256' ? 'SHA-256' : 'Scrypt', exact: true })
            .locator(`time[datetime="${h.countedUpTo}"]`);
          await line.waitFor();
          const time = await asOf(page, h.countedUpTo, language);
          expect(await line.innerText()).toBe(t(ageKey(h.activeWorkers > 0), { time }));
          ages.set(h.algorithm === 'sha256' ? 'SHA-256' : 'Scrypt', await line.innerText());
        }
        await page.goto('/workers');
        await page.locator('main').getByRole('region', { name: 'Scrypt' }).waitFor();
        for (const algorithm of ['SHA-256', 'Scrypt']) {
          // Workers: real-time, 1 h, 24 h; the first and last are the dashboard's.
          const onWorkers = await figures(page, 'main', algorithm);
          expect([onWorkers[0], onWorkers[2]]).toEqual(seen.get(algorithm));
          const region = page.locator('main').getByRole('region', { name: algorithm, exact: true });
          expect(await region.locator('time').innerText()).toBe(ages.get(algorithm));
        }
        await page.goto('/workers');
        await page.getByRole('link', { name: t('workers.viewDetails', { name: 'l7' }) }).click();
        await page
          .getByRole('heading', { level: 1, name: t('workers.details.title', { name: 'l7' }) })
          .waitFor();
        // The worker's own figures say how old they are: its last accepted share.
        const l7 = (await workers()).workers.find((w) => w.name === 'l7');
        if (!l7?.lastSeen) throw new Error('l7 has no last share');
        const age = page.locator(`main time[datetime="${l7.lastSeen}"]`);
        await age.waitFor();
        expect(await age.innerText()).toBe(
          t(ageKey(l7.status === 'online'), { time: await asOf(page, l7.lastSeen, language) }),
        );
        const zone = await page.evaluate(
          (locale) =>
            new Intl.DateTimeFormat(locale, { timeZoneName: 'short' })
              .formatToParts(new Date())
              .find((part) => part.type === 'timeZoneName')?.value ?? '',
          language === 'ar' ? 'ar-u-nu-latn' : 'en',
        );
        const chart = page.locator('.chart-box');
        await chart.waitFor();
        expect(await chart.getAttribute('aria-label')).toContain(zone);
      } finally {
        await context.close();
        await accountLanguage('en');
      }
    },
  );

  it('hides every hashrate figure (cards, sidebar, worker columns and sparklines) with Show Hashrate off', async () => {
    const t = translator('en');
    await api(pool.baseUrl, '/api/settings', {
      method: 'PUT',
      token: session.token,
      body: { showHashrate: false },
    });
    const context = await newContext(browser, pool.baseUrl, {
      language: 'en',
      session: { token: session.token, user: session.user },
    });
    const page = await context.newPage();
    const hidden = page.getByRole('img', { name: t('common.hashrateHidden') });
    try {
      // The online workers no miner claims are offered under Your Miners, each with its hashrate.
      const { undeclared } = await api<MinerList>(pool.baseUrl, '/api/miners', { token: session.token });
      await page.goto('/dashboard');
      // Two algorithms x (real-time, 24 h) on the dashboard card and in the sidebar, and the offered workers.
      await expect.poll(() => hidden.count(), { timeout: 20_000 }).toBe(8 + undeclared.length);
      // The chart has its own query: it may arrive after the cards.
      await expect
        .poll(() => page.getByText(t('common.hashrateHidden')).count(), { timeout: 20_000 })
        .toBe(1);
      await page.goto('/workers');
      await page.getByRole('link', { name: t('workers.viewDetails', { name: 's19' }) }).waitFor();
      // Sidebar 4 + totals 2 x 3 + each of two workers' 10 min, 1 h, 24 h and sparkline.
      await expect.poll(() => hidden.count(), { timeout: 20_000 }).toBe(4 + 6 + 2 * 4);
    } finally {
      await context.close();
      await api(pool.baseUrl, '/api/settings', {
        method: 'PUT',
        token: session.token,
        body: { showHashrate: true },
      });
    }
  });

  it.each(['en', 'ar'] as const)(
    'keeps every figure on screen at 1280 and 375 px in %s (screenshots)',
    async (language: Language) => {
      await accountLanguage(language);
      const list = await workers();
      const detail = `/workers/${list.workers[0]?.id ?? 0}`;
      for (const width of [1280, 375]) {
        const context = await newContext(browser, pool.baseUrl, {
          language,
          width,
          session: { token: session.token, user: session.user },
        });
        const page = await context.newPage();
        try {
          for (const [route, name] of [
            ['/dashboard', 'dashboard'],
            ['/workers', 'workers'],
            [detail, 'worker-detail'],
          ] as const) {
            await page.goto(route);
            await page.locator('main h1').first().waitFor();
            await page.locator('main .spinner').first().waitFor({ state: 'detached' });
            await page.locator('main .algo-hashrates, main .chart-box').first().waitFor();
            await screenshot(page, `hashrate-${language}-${width}-${name}`);
            expect(
              await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
              `${route} at ${width} px`,
            ).toBe(true);
          }
        } finally {
          await context.close();
        }
      }
      await accountLanguage('en');
    },
  );
});
