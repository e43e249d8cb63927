// Settings → Wallet per coin (issue 27): a row per pool coin with its own address, pending change,
// threshold in its unit and save, in English and Arabic.
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PayoutSetting, Settings } from '../../lib/api-types';
import SettingsPage from '../../pages/settings/SettingsPage';
import { UNSET_PAYOUTS } from '../../../test/payouts';
import { jsonResponse, renderWithApp, signInForTest } from '../../../test/render';

const LTC = 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9';
const XMR = '43SE2g2W29fPioBafSyQd4MZFPnHmY1qYYuiutALpFijYeDcNidCVeVf6B5yboWQujRTkxAWcxRY3KdH6vKEDAajPhmzzGA';
const BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const BTC_NEXT = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';

const BASE: Settings = {
  darkMode: true,
  showBalance: true,
  showHashrate: true,
  theme: 'dark',
  language: 'en',
  notifications: true,
  emailAlerts: false,
  emailAlertsAvailable: true,
  twoFactorAuth: false,
  autoLogout: true,
  timeZone: null,
  payouts: UNSET_PAYOUTS,
  rigTokenSet: false,
};

/** Settings with some coins' entries changed. */
const withPayouts = (changes: Partial<Record<PayoutSetting['coin'], Partial<PayoutSetting>>>): Settings => ({
  ...BASE,
  payouts: UNSET_PAYOUTS.map((p) => ({ ...p, ...changes[p.coin] })),
});

type Handler = (init: RequestInit) => Response;

function serve(routes: Record<string, Handler>) {
  const fetchMock = vi.fn((url: string, init: RequestInit = {}) => {
    const handler = routes[`${init.method ?? 'GET'} ${url}`];
    return Promise.resolve(
      handler ? handler(init) : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const bodiesOf = (fetchMock: ReturnType<typeof serve>, url: string): unknown[] =>
  fetchMock.mock.calls
    .filter(([u]) => u === url)
    .map(([, init]) => JSON.parse(init?.body as string) as unknown);

const rowOf = (name: string): HTMLElement => screen.getByRole('region', { name });

beforeEach(() => signInForTest());
afterEach(() => vi.unstubAllGlobals());

describe('payout settings per coin', () => {
  it('shows one row per pool coin, each with its threshold in its own unit', async () => {
    serve({ 'GET /api/settings': () => jsonResponse(BASE) });
    renderWithApp(<SettingsPage />, { route: '/settings?tab=wallet' });
    expect(await screen.findByText('Payout address and threshold per coin')).toBeInTheDocument();
    const expected: [string, string][] = [
      ['Bitcoin (BTC)', '0.01 BTC'],
      ['Litecoin (LTC)', '0.01 LTC'],
      ['Monero (XMR)', '0.01 XMR'],
      ['Kaspa (KAS)', '10.00 KAS'],
    ];
    for (const [name, threshold] of expected) {
      const row = rowOf(name);
      expect(within(row).getByText(threshold)).toBeInTheDocument();
      expect(within(row).getByText(/No .* payout address yet/)).toBeInTheDocument();
    }
    expect(
      screen.getByText(
        'You have no payout address yet: your balance is credited but cannot be paid out until you set one.',
      ),
    ).toBeInTheDocument();
  });

  it('saves an LTC address and then an XMR address, and shows both', async () => {
    const fetchMock = serve({
      'GET /api/settings': () => jsonResponse(BASE),
      'PUT /api/settings/payout-address': (init) => {
        const body = JSON.parse(init.body as string) as { coin: string };
        return jsonResponse(
          body.coin === 'LTC'
            ? withPayouts({ LTC: { address: LTC } })
            : withPayouts({ LTC: { address: LTC }, XMR: { address: XMR } }),
        );
      },
    });
    renderWithApp(<SettingsPage />, { route: '/settings?tab=wallet' });
    for (const [coin, address, name] of [
      ['LTC', LTC, 'Litecoin (LTC)'],
      ['XMR', XMR, 'Monero (XMR)'],
    ] as const) {
      await screen.findByText('Payout address and threshold per coin');
      const row = rowOf(name);
      fireEvent.click(within(row).getByRole('button', { name: `Set \u2068${coin}\u2069 address` }));
      fireEvent.change(within(row).getByLabelText(`New \u2068${coin}\u2069 payout address`), {
        target: { value: address },
      });
      fireEvent.change(within(row).getByLabelText('Password (to confirm it is you)'), {
        target: { value: 'correct horse' },
      });
      fireEvent.click(within(row).getByRole('button', { name: 'Save address' }));
      expect(await within(row).findByText(address)).toBeInTheDocument();
    }
    expect(within(rowOf('Litecoin (LTC)')).getByText(LTC)).toBeInTheDocument();
    expect(within(rowOf('Monero (XMR)')).getByText(XMR)).toBeInTheDocument();
    expect(within(rowOf('Monero (XMR)')).getByText(XMR)).toHaveAttribute('dir', 'ltr');
    expect(screen.queryByText(/You have no payout address yet/)).not.toBeInTheDocument();
    expect(bodiesOf(fetchMock, '/api/settings/payout-address')).toEqual([
      { address: LTC, coin: 'LTC', password: 'correct horse' },
      { address: XMR, coin: 'XMR', password: 'correct horse' },
    ]);
  });

  it('refuses a Litecoin address on the BTC row before sending it', async () => {
    const fetchMock = serve({ 'GET /api/settings': () => jsonResponse(BASE) });
    renderWithApp(<SettingsPage />, { route: '/settings?tab=wallet' });
    await screen.findByText('Payout address and threshold per coin');
    const row = rowOf('Bitcoin (BTC)');
    fireEvent.click(within(row).getByRole('button', { name: 'Set \u2068BTC\u2069 address' }));
    fireEvent.change(within(row).getByLabelText('New \u2068BTC\u2069 payout address'), {
      target: { value: LTC },
    });
    fireEvent.change(within(row).getByLabelText('Password (to confirm it is you)'), {
      target: { value: 'correct horse' },
    });
    fireEvent.click(within(row).getByRole('button', { name: 'Save address' }));
    expect(within(row).getByText('Please enter a valid BTC address')).toBeInTheDocument();
    expect(bodiesOf(fetchMock, '/api/settings/payout-address')).toEqual([]);
  });

  it("shows a coin's pending change with its date, and copies the address in force", async () => {
    serve({
      'GET /api/settings': () =>
        jsonResponse(
          withPayouts({
            BTC: { address: BTC, pendingAddress: BTC_NEXT, pendingEffectiveAt: '2026-11-24T03:00:00.000Z' },
          }),
        ),
    });
    renderWithApp(<SettingsPage />, { route: '/settings?tab=wallet' });
    await screen.findByText('Payout address and threshold per coin');
    const row = rowOf('Bitcoin (BTC)');
    expect(within(row).getByText('Pending change:', { exact: false })).toHaveTextContent(
      /Pending change: 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa takes effect Nov 2[34], 2026/,
    );
    expect(
      within(row).getByRole('button', { name: 'Copy \u2068BTC\u2069 payout address' }),
    ).toBeInTheDocument();
    expect(within(rowOf('Litecoin (LTC)')).queryByText('Pending change:', { exact: false })).toBeNull();
  });

  it("saves a coin's threshold in base units, refusing one outside the coin's range", async () => {
    const fetchMock = serve({
      'GET /api/settings': () => jsonResponse(BASE),
      'PUT /api/settings/payout-threshold': () =>
        jsonResponse(withPayouts({ XMR: { threshold: '250000000000' } })),
    });
    renderWithApp(<SettingsPage />, { route: '/settings?tab=wallet' });
    await screen.findByText('Payout address and threshold per coin');
    const row = rowOf('Monero (XMR)');
    expect(within(row).getByText('0.001 XMR – 10,000.00 XMR')).toBeInTheDocument();
    const field = within(row).getByLabelText('Payout threshold in \u2068XMR\u2069');
    fireEvent.change(field, { target: { value: '0.0001' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Save threshold' }));
    expect(
      within(row).getByText(
        'Enter an amount within the allowed range, with no more decimals than the coin has.',
      ),
    ).toBeInTheDocument();
    fireEvent.change(field, { target: { value: '0.25' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Save threshold' }));
    expect(await within(row).findByText('Threshold saved.')).toBeInTheDocument();
    expect(within(row).getByText('0.25 XMR')).toBeInTheDocument();
    expect(bodiesOf(fetchMock, '/api/settings/payout-threshold')).toEqual([
      { coin: 'XMR', threshold: '250000000000' },
    ]);
  });

  it('reads in Arabic with every address, amount and unit kept left-to-right', async () => {
    serve({
      'GET /api/settings': () =>
        jsonResponse(
          withPayouts({
            LTC: { address: LTC },
            BTC: { address: BTC, pendingAddress: BTC_NEXT, pendingEffectiveAt: '2026-11-24T03:00:00.000Z' },
          }),
        ),
    });
    renderWithApp(<SettingsPage />, { route: '/settings?tab=wallet', lang: 'ar' });
    expect(await screen.findByText('عنوان الدفع وحدّ الدفع لكل عملة')).toBeInTheDocument();
    const ltc = within(rowOf('لايتكوين (LTC)'));
    expect(ltc.getByText(LTC)).toHaveAttribute('dir', 'ltr');
    expect(ltc.getByText('0.01 LTC')).toHaveAttribute('dir', 'ltr');
    expect(ltc.getByRole('button', { name: 'تغيير' })).toBeInTheDocument();
    const btc = within(rowOf('بيتكوين (BTC)'));
    expect(btc.getByText(BTC_NEXT)).toHaveAttribute('dir', 'ltr');
    expect(btc.getByText('تغيير قيد الانتظار:', { exact: false })).toBeInTheDocument();
    const xmr = within(rowOf('مونيرو (XMR)'));
    expect(xmr.getByText('لا يوجد عنوان دفع لعملة \u2068XMR\u2069 بعد')).toBeInTheDocument();
    expect(xmr.getByLabelText('حدّ الدفع بعملة \u2068XMR\u2069')).toHaveAttribute('dir', 'ltr');
    expect(screen.queryByText(/Payout|threshold|address/)).toBeNull();
  });
});
