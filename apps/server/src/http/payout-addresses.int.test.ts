/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests read JSON bodies field by field */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { payoutOf } from '../../test/support/payout-settings.js';

/** A real Monero mainnet standard address (mainnet prefixes are regtest's too). */
const MONERO_ADDRESS =
  '43SE2g2W29fPioBafSyQd4MZFPnHmY1qYYuiutALpFijYeDcNidCVeVf6B5yboWQujRTkxAWcxRY3KdH6vKEDAajPhmzzGA';
/** Monero-shaped, not Monero: "4" and 94 letters (what the old shape check let through). */
const SHAPE_ONLY = `4${'a'.repeat(94)}`;
/** The real address with its last character changed: the Keccak checksum no longer matches. */
const BAD_CHECKSUM = `${MONERO_ADDRESS.slice(0, -1)}B`;

const XMR_MESSAGE = { en: 'Please enter a valid XMR address', ar: 'يرجى إدخال عنوان XMR صالح' };

describeEachDatabase('Monero payout addresses at registration and in Settings', (getDb) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(getDb());
  });
  afterAll(() => api.close());

  function register(username: string, walletAddress: string, language = 'en') {
    return api.request('POST', '/api/auth/register', {
      body: {
        username,
        email: `${username}@example.com`,
        password: 'longenough1',
        preferredCoin: 'XMR',
        walletAddress,
      },
      headers: { 'accept-language': language },
    });
  }

  it('refuses a shape-only or mistyped Monero address at registration with the Monero message, in English and Arabic', async () => {
    for (const [i, address] of [SHAPE_ONLY, BAD_CHECKSUM].entries()) {
      const en = await register(`xmrbad${i}`, address);
      expect(en.status).toBe(400);
      expect(en.json.error.fields).toEqual({ walletAddress: XMR_MESSAGE.en });
      const ar = await register(`xmrbad${i}`, address, 'ar');
      expect(ar.status).toBe(400);
      expect(ar.json.error.fields).toEqual({ walletAddress: XMR_MESSAGE.ar });
    }
  });

  it('registers with a real Monero address and shows it after sign-in', async () => {
    expect((await register('xmrgood', MONERO_ADDRESS)).status).toBe(202);
    const login = await api.request('POST', '/api/auth/login', {
      body: { email: 'xmrgood@example.com', password: 'longenough1' },
    });
    expect(login.json.user.walletAddress).toBe(MONERO_ADDRESS);
    expect(login.json.user.preferredCoin).toBe('XMR');
  });

  it('refuses a shape-only Monero payout address in Settings with the Monero message, and saves a real one', async () => {
    const { token, password } = await api.signUp('xmrsettings');
    for (const language of ['en', 'ar'] as const) {
      const refused = await api.request('PUT', '/api/settings/payout-address', {
        token,
        body: { address: SHAPE_ONLY, coin: 'XMR', password },
        headers: { 'accept-language': language },
      });
      expect(refused.status).toBe(400);
      expect(refused.json.error.fields).toEqual({ address: XMR_MESSAGE[language] });
    }
    const saved = await api.request('PUT', '/api/settings/payout-address', {
      token,
      body: { address: MONERO_ADDRESS, coin: 'XMR', password },
    });
    expect(saved.status).toBe(200);
    expect(payoutOf(saved.json, 'XMR').address).toBe(MONERO_ADDRESS);
  });

  it('refuses a Bitcoin address offered as a Monero one, and a Monero address offered as a Bitcoin one', async () => {
    const asXmr = await register('xmrasbtc', 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn');
    expect(asXmr.json.error.fields).toEqual({ walletAddress: XMR_MESSAGE.en });
    const asBtc = await api.request('POST', '/api/auth/register', {
      body: {
        username: 'btcasxmr',
        email: 'btcasxmr@example.com',
        password: 'longenough1',
        preferredCoin: 'BTC',
        walletAddress: MONERO_ADDRESS,
      },
    });
    expect(asBtc.json.error.fields).toEqual({ walletAddress: 'Please enter a valid BTC address' });
  });
});
