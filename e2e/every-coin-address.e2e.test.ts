// Every live coin's payout address through the web forms, in English and Arabic: a miner registers
// on /register with the coin preferred and an address of its dev chain, signs in, changes that
// coin's address in Settings → Wallet (another address of the dev chain) and sees the change
// pending with the hold's date. Kaspa's dev chain runs (its network, simnet, is then the one the
// web checks: `kaspasim:` addresses of 61 and 63 characters); the other coins' addresses are of
// their dev chains' networks (bcoin's rb1/G/R, litecoind regtest's rltc1 and Q, monerod regtest's
// mainnet prefixes). Screenshots go to e2e/screenshots/.
import { POOL_COINS, type PayoutSetting, type PoolCoin, type Settings, type User } from '@manjam/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureKaspad } from '../scripts/kaspad.mjs';
import { api } from './support/api.js';
import { launchBrowser, newContext, screenshot, type Language } from './support/browser.js';
import { translator } from './support/i18n.js';
import { startTestPool, type TestPool } from './support/pool.js';

/** Per coin: the address given at registration, then the change made in Settings → Wallet. */
const ADDRESSES: Record<PoolCoin, [first: string, change: string]> = {
  BTC: ['rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn', 'GUXByHDZLvU4DnVH9imSFckt3HEQ5cFgE5'],
  LTC: [
    'rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3',
    'rltc1pfwxjqvtt4tcxrtdluukfmy2dv7xd2qzdfy6kajv5nwn4yam3wxkqeh7wn6',
  ],
  XMR: [
    '43SE2g2W29fPioBafSyQd4MZFPnHmY1qYYuiutALpFijYeDcNidCVeVf6B5yboWQujRTkxAWcxRY3KdH6vKEDAajPhmzzGA',
    '85WPgwcte7C88AtQwDfH9e925pwQKEzDrXzFWsnmrTuoPEa7u3i8RAdRbQvWajj2SrTTrAi1je3JNGo3zoJrh2tDK6PD1Z4',
  ],
  KAS: [
    'kaspasim:qputx94qseratdmjs0j395mq8u03er0x3l35ennsep3hxfe7ln35cck8582g4',
    'kaspasim:qyp0r5mcq4rd5grj3652ra09u5dcgwqq9ntuswp247nama5quyj40eqpnr5cqmp',
  ],
};
const PASSWORD = 'correct horse battery';
/** A coin code inside a translated label stays left to right (the web's features/settings/isolate.ts). */
const isolate = (text: string): string => `\u2068${text}\u2069`;

let pool: TestPool;
let browser: Browser;

beforeAll(async () => {
  const installed = await ensureKaspad({ quiet: true });
  if (!installed.ok) throw new Error(installed.reason);
  pool = await startTestPool({ coins: ['KAS'] });
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await pool?.stop();
});

/** Registers on /register with `coin` preferred and its first address, then signs in on /login. */
async function registerAndSignIn(
  page: Page,
  t: ReturnType<typeof translator>,
  coin: PoolCoin,
  email: string,
) {
  await page.goto('/register');
  await page.getByLabel(t('register.username')).fill(email.split('@')[0] ?? email);
  await page.getByLabel(t('register.email')).fill(email);
  await page.getByLabel(t('register.password'), { exact: true }).fill(PASSWORD);
  await page.getByLabel(t('register.confirmPassword')).fill(PASSWORD);
  await page.getByLabel(t('register.preferredCoin')).selectOption(coin);
  await page.getByLabel(t('register.walletAddress')).fill(ADDRESSES[coin][0]);
  await page.getByRole('button', { name: t('register.submit') }).click();
  await page.getByText(t('register.success')).waitFor();
  await page.getByRole('heading', { name: t('login.title') }).waitFor();
  await page.getByLabel(t('login.email')).fill(email);
  await page.getByLabel(t('login.password'), { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: t('login.submit') }).click();
  await page.waitForURL((url) => !/\/login/.test(url.pathname));
}

describe.each<Language>(['en', 'ar'])('every live coin’s payout address in the web app [%s]', (language) => {
  const t = translator(language);

  it.each(POOL_COINS)(
    'registers with %s preferred and changes its address in Settings → Wallet, pending for the hold',
    async (coin) => {
      const context = await newContext(browser, pool.baseUrl, { language, width: 1280 });
      try {
        const page = await context.newPage();
        const email = `addr${coin.toLowerCase()}${language}${Date.now().toString(36)}@example.com`;
        await registerAndSignIn(page, t, coin, email);

        await page.goto('/settings?tab=wallet');
        const card = page.getByRole('region', { name: t(`coins.${coin}`) });
        await card.getByText(ADDRESSES[coin][0], { exact: true }).waitFor();
        await card.getByRole('button', { name: t('settings.wallet.edit') }).click();
        await card
          .getByLabel(t('settings.wallet.newAddressFor', { coin: isolate(coin) }))
          .fill(ADDRESSES[coin][1]);
        await card.getByLabel(t('settings.wallet.password')).fill(PASSWORD);
        await card.getByRole('button', { name: t('settings.wallet.submit') }).click();
        await card.getByText(t('settings.wallet.saved')).waitFor();
        await card.getByText(t('settings.wallet.pendingLabel')).waitFor();
        await card.getByText(ADDRESSES[coin][1], { exact: true }).waitFor();
        // No quick-check message under the field: the web accepted what the server accepts.
        expect(await page.getByText(t(`validation.${coin.toLowerCase()}Invalid`)).count()).toBe(0);
        await screenshot(page, `every-coin-address-${coin}-${language}`);

        const token = await page.evaluate(() => localStorage.getItem('token'));
        if (!token) throw new Error('signed in without a token');
        const settings = await api<Settings>(pool.baseUrl, '/api/settings', { token });
        const payout = settings.payouts.find((p: PayoutSetting) => p.coin === coin);
        const me = await api<User>(pool.baseUrl, '/api/me', { token });
        expect(me.preferredCoin).toBe(coin);
        expect(payout).toMatchObject({ address: ADDRESSES[coin][0], pendingAddress: ADDRESSES[coin][1] });
        expect(Date.parse(payout?.pendingEffectiveAt ?? '')).toBeGreaterThan(Date.now());
      } finally {
        await context.close();
      }
    },
  );
});
