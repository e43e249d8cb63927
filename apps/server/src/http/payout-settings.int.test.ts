/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- tests read JSON bodies field by field */
// Per-coin payout settings over HTTP (issue 27): each coin the pool mines keeps its own address,
// its own pending change with the hold, and its own threshold with its range; a change of one coin
// never touches another's. Run on PostgreSQL and PGlite.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FixtureWriter } from '../../test/support/db/fixtures.js';
import { describeEachDatabase } from '../../test/support/db.js';
import { startTestApi, type TestApi } from '../../test/support/http.js';
import { payoutOf } from '../../test/support/payout-settings.js';

const BTC = 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn';
const BTC_NEXT = 'rb1qqurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurst2l86c';
/** Litecoin regtest bech32 (rltc1), the same witness programs as the BTC ones above. */
const LTC = 'rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3';
const LTC_NEXT = 'rltc1qqurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qursgfcc0c';
/** A real Monero mainnet standard address (mainnet prefixes are regtest's too). */
const XMR = '43SE2g2W29fPioBafSyQd4MZFPnHmY1qYYuiutALpFijYeDcNidCVeVf6B5yboWQujRTkxAWcxRY3KdH6vKEDAajPhmzzGA';
/** Addresses only the lookup test uses (P2WPKH of twenty 0x07 bytes). */
const LOOKUP_BTC = 'rb1qqurswpc8qurswpc8qurswpc8qurswpc8cfe4l2';
const LOOKUP_LTC = 'rltc1qqurswpc8qurswpc8qurswpc8qurswpc8ntpxlg';
const HOLD_MS = 48 * 3_600_000;

describeEachDatabase('payout settings per coin', (getDb) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(getDb());
  });
  afterAll(() => api.close());

  const setAddress = (
    user: { token: string; password: string },
    coin: string,
    address: string,
    extra: Record<string, unknown> = {},
    language = 'en',
  ) =>
    api.request('PUT', '/api/settings/payout-address', {
      token: user.token,
      body: { address, coin, password: user.password, ...extra },
      headers: { 'accept-language': language },
    });

  it('answers one entry per pool coin with its default threshold and range in base units', async () => {
    const user = await api.signUp('percoin_read');
    const read = await api.request('GET', '/api/settings', { token: user.token });
    expect(read.status).toBe(200);
    expect(read.json.payouts).toEqual([
      expect.objectContaining({
        coin: 'BTC',
        address: null,
        threshold: '1000000',
        minimumThreshold: '100000',
      }),
      expect.objectContaining({
        coin: 'LTC',
        address: null,
        threshold: '1000000',
        minimumThreshold: '100000',
      }),
      expect.objectContaining({
        coin: 'XMR',
        address: null,
        threshold: '10000000000',
        minimumThreshold: '1000000000',
      }),
      expect.objectContaining({
        coin: 'KAS',
        address: null,
        threshold: '1000000000',
        minimumThreshold: '100000000',
      }),
    ]);
  });

  it('makes the registration wallet address the payout address of the coin it was registered for', async () => {
    const user = await api.signUp('percoin_reg', { preferredCoin: 'LTC', walletAddress: LTC });
    const read = await api.request('GET', '/api/settings', { token: user.token });
    expect(payoutOf(read.json, 'LTC')).toMatchObject({ address: LTC, pendingAddress: null });
    expect(payoutOf(read.json, 'BTC').address).toBeNull();
    // Its first change is held like any change of an address in use.
    const change = await setAddress(user, 'LTC', LTC_NEXT);
    expect(payoutOf(change.json, 'LTC')).toMatchObject({ address: LTC, pendingAddress: LTC_NEXT });
  });

  it('keeps an LTC address and then an XMR address side by side, both in force at once', async () => {
    const user = await api.signUp('percoin_both');
    expect((await setAddress(user, 'LTC', LTC)).status).toBe(200);
    const saved = await setAddress(user, 'XMR', XMR);
    expect(saved.status).toBe(200);
    expect(payoutOf(saved.json, 'LTC')).toMatchObject({ address: LTC, pendingAddress: null });
    expect(payoutOf(saved.json, 'XMR')).toMatchObject({ address: XMR, pendingAddress: null });
    expect(payoutOf(saved.json, 'BTC').address).toBeNull();
    const view = await getDb().query<{ coin: string; address: string }>(
      'SELECT coin, address FROM user_payout_addresses WHERE user_id = $1 ORDER BY coin',
      [user.id],
    );
    expect(view.rows).toEqual([
      { coin: 'LTC', address: LTC },
      { coin: 'XMR', address: XMR },
    ]);
  });

  it('holds a change per coin: a pending BTC change survives a new LTC address and an LTC change of its own', async () => {
    const user = await api.signUp('percoin_hold');
    // The clock jumps hours ahead: the idle sign-out would end the session first.
    await api.request('PUT', '/api/settings', { token: user.token, body: { autoLogout: false } });
    await setAddress(user, 'BTC', BTC);
    const btcChange = await setAddress(user, 'BTC', BTC_NEXT);
    const btcDue = new Date(api.clock.now + HOLD_MS).toISOString();
    expect(payoutOf(btcChange.json, 'BTC')).toMatchObject({
      address: BTC,
      pendingAddress: BTC_NEXT,
      pendingEffectiveAt: btcDue,
    });

    api.clock.now += 3_600_000;
    const ltcFirst = await setAddress(user, 'LTC', LTC);
    expect(payoutOf(ltcFirst.json, 'LTC')).toMatchObject({ address: LTC, pendingAddress: null });
    expect(payoutOf(ltcFirst.json, 'BTC')).toMatchObject({ address: BTC, pendingAddress: BTC_NEXT });

    const ltcChange = await setAddress(user, 'LTC', LTC_NEXT);
    const ltcDue = new Date(api.clock.now + HOLD_MS).toISOString();
    expect(payoutOf(ltcChange.json, 'LTC')).toMatchObject({
      address: LTC,
      pendingAddress: LTC_NEXT,
      pendingEffectiveAt: ltcDue,
    });
    expect(payoutOf(ltcChange.json, 'BTC').pendingEffectiveAt).toBe(btcDue);

    // The BTC hold ends an hour before the LTC one: each coin moves on its own clock.
    api.clock.now = Date.parse(btcDue) + 1_000;
    const between = await api.request('GET', '/api/settings', { token: user.token });
    expect(payoutOf(between.json, 'BTC')).toMatchObject({ address: BTC_NEXT, pendingAddress: null });
    expect(payoutOf(between.json, 'LTC')).toMatchObject({ address: LTC, pendingAddress: LTC_NEXT });
    api.clock.now = Date.parse(ltcDue) + 1_000;
    const after = await api.request('GET', '/api/settings', { token: user.token });
    expect(payoutOf(after.json, 'LTC')).toMatchObject({ address: LTC_NEXT, pendingAddress: null });
  });

  it('checks each address by its own coin, and asks for the password on every coin', async () => {
    const user = await api.signUp('percoin_rules');
    const ltcAsBtc = await setAddress(user, 'BTC', LTC);
    expect(ltcAsBtc.status).toBe(400);
    expect(ltcAsBtc.json.error.fields).toEqual({ address: 'Please enter a valid BTC address' });
    const btcAsXmr = await setAddress(user, 'XMR', BTC, {}, 'ar');
    expect(btcAsXmr.json.error.fields).toEqual({ address: 'يرجى إدخال عنوان XMR صالح' });
    const noPassword = await api.request('PUT', '/api/settings/payout-address', {
      token: user.token,
      body: { address: LTC, coin: 'LTC' },
    });
    expect(noPassword.status).toBe(400);
    const wrongPassword = await setAddress(user, 'LTC', LTC, { password: 'not the password' });
    expect(wrongPassword.status).toBe(403);
    const doge = await setAddress(user, 'DOGE', 'D8vFz4p1L37jdg47HXKtSHA5uYLYxbGgPD');
    expect(doge.status).toBe(400);
    expect(doge.json.error.fields).toHaveProperty('coin');
    const read = await api.request('GET', '/api/settings', { token: user.token });
    expect(read.json.payouts.every((p: { address: string | null }) => p.address === null)).toBe(true);
  });

  it('sets one coin’s threshold within its range and leaves the other coins at their own', async () => {
    const user = await api.signUp('percoin_threshold');
    const setThreshold = (coin: string, threshold: string, language = 'en') =>
      api.request('PUT', '/api/settings/payout-threshold', {
        token: user.token,
        body: { coin, threshold },
        headers: { 'accept-language': language },
      });
    const xmr = await setThreshold('XMR', '250000000000'); // 0.25 XMR
    expect(xmr.status).toBe(200);
    expect(payoutOf(xmr.json, 'XMR').threshold).toBe('250000000000');
    expect(payoutOf(xmr.json, 'BTC').threshold).toBe('1000000');
    for (const [coin, threshold] of [
      ['BTC', '99999'], // 0.00099999 BTC: under the 0.001 minimum
      ['KAS', '50000000'], // 0.5 KAS: under the 1 KAS minimum
      ['LTC', '1000000000000001'], // over the 10,000 LTC maximum
    ] as const) {
      const refused = await setThreshold(coin, threshold);
      expect(refused.status).toBe(400);
      expect(refused.json.error.fields).toEqual({
        threshold: 'Choose a payout threshold within the range shown for this coin',
      });
    }
    const arabic = await setThreshold('BTC', '0.01', 'ar');
    expect(arabic.json.error.fields).toEqual({ threshold: 'اختر حدًّا للدفع ضمن النطاق المبيَّن لهذه العملة' });
    const stored = await getDb().query<{ coin: string; threshold: string }>(
      'SELECT coin, threshold::text AS threshold FROM user_payout_settings WHERE user_id = $1',
      [user.id],
    );
    expect(stored.rows).toEqual([{ coin: 'XMR', threshold: '250000000000' }]);
  });

  it('finds an account by each coin’s payout address, showing that coin’s workers only', async () => {
    const user = await api.signUp('percoin_lookup');
    const fx = new FixtureWriter(getDb());
    const seen = new Date(api.clock.now - 60_000);
    await fx.worker(await fx.userPayee(user.id, 'BTC'), 'btcrig', { lastShareAt: seen, accepted: 5 });
    await fx.worker(await fx.userPayee(user.id, 'LTC'), 'ltcrig', { lastShareAt: seen, accepted: 5 });
    const names = async (address: string): Promise<string[]> =>
      (await api.request('GET', `/api/miners/lookup/${address}`)).json.miners?.map(
        (m: { name: string }) => m.name,
      ) ?? [];
    await setAddress(user, 'LTC', LOOKUP_LTC);
    expect(await names(LOOKUP_LTC)).toEqual(['ltcrig']);
    await setAddress(user, 'BTC', LOOKUP_BTC);
    expect(await names(LOOKUP_BTC)).toEqual(['btcrig']);
    expect(await names(LOOKUP_LTC)).toEqual(['ltcrig']);
  });
});
