// Settings → Wallet and the Wallet page with an address per coin (issue 27, items 2 and 11): with
// an LTC address, a 95-letter XMR address and a pending BTC change, neither page scrolls sideways
// at 375 px nor widens the desktop page, in English and Arabic; every pool coin has its own card
// with its threshold in its unit. Screenshots go to e2e/screenshots/.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, registerAndLogin, type Session } from './support/api.js';
import { launchBrowser, newContext, pageOverflow, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
import { startTestPool, type TestPool } from './support/pool.js';

const BTC = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';
const BTC_NEXT = 'rb1qqurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurst2l86c';
const LTC = 'rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3';
const XMR = '43SE2g2W29fPioBafSyQd4MZFPnHmY1qYYuiutALpFijYeDcNidCVeVf6B5yboWQujRTkxAWcxRY3KdH6vKEDAajPhmzzGA';
const LANGUAGES: Language[] = ['en', 'ar'];

let pool: TestPool;
let browser: Browser;
const sessions = new Map<Language, Session & { password: string }>();

beforeAll(async () => {
  pool = await startTestPool();
  browser = await launchBrowser();
  for (const language of LANGUAGES) {
    const session = await registerAndLogin(pool.baseUrl, `coins${language}`, language);
    sessions.set(language, session);
    for (const [coin, address] of [
      ['LTC', LTC],
      ['XMR', XMR],
      ['BTC', BTC],
      ['BTC', BTC_NEXT], // a change: pending for the hold
    ] as const)
      await api(pool.baseUrl, '/api/settings/payout-address', {
        method: 'PUT',
        token: session.token,
        body: { address, coin, password: session.password },
      });
  }
});

afterAll(async () => {
  await browser?.close();
  await pool?.stop();
});

describe.each(LANGUAGES)('payout addresses per coin [%s]', (language) => {
  const t = translator(language);

  for (const width of [375, 1280]) {
    it(`fits ${width} px on Settings → Wallet and the Wallet page, with a card per coin`, async () => {
      const session = sessions.get(language);
      if (!session) throw new Error('no session');
      const context = await newContext(browser, pool.baseUrl, { language, width, session });
      try {
        const page = await context.newPage();
        await page.goto('/settings?tab=wallet');
        await page.getByText(t('settings.wallet.perCoinTitle')).waitFor();
        for (const coin of ['BTC', 'LTC', 'XMR', 'KAS'])
          await page.getByRole('region', { name: t(`coins.${coin}`) }).waitFor();
        await page.getByText(XMR).waitFor();
        await page.getByText(BTC_NEXT).waitFor();
        const settings = await pageOverflow(page);
        expect(settings.culprits).toEqual([]);
        expect(settings.scrollWidth).toBeLessThanOrEqual(width);
        await screenshot(page, `payout-coins-settings-${language}-${width}`);

        await page.goto('/wallet');
        await page.getByText(XMR).waitFor();
        const wallet = await pageOverflow(page);
        expect(wallet.culprits).toEqual([]);
        expect(wallet.scrollWidth).toBeLessThanOrEqual(width);
        expect(await page.getByText('0.01 LTC').count()).toBe(1);
        await screenshot(page, `payout-coins-wallet-${language}-${width}`);
      } finally {
        await context.close();
      }
    });
  }
});
