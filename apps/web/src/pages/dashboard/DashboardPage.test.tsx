import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
import { UNSET_PAYOUTS } from '../../../test/payouts';
import DashboardPage from './DashboardPage';

const dashboard = {
  hashrates: [
    {
      algorithm: 'sha256',
      coin: 'BTC',
      realtime: 125.5e12,
      hour: 124e12,
      day: 120e12,
      activeWorkers: 2,
      countedUpTo: '2026-11-22T10:04:30.000Z',
    },
    {
      algorithm: 'scrypt',
      coin: 'LTC',
      realtime: 2_184.5,
      hour: 2_000,
      day: 1_500,
      activeWorkers: 1,
      countedUpTo: '2026-11-22T10:03:10.000Z',
    },
  ],
  activeMiners: { value: 3, change: '-3.0%' },
  unpaidBalance: { value: '1234500', change: 'new' },
  dailyEarnings: { value: '52000', change: '0.0%' },
  coin: 'LTC',
  unsettled: { accrued: '41000', accruedSince: '2026-11-22T00:00:00.000Z', immature: '0', immatureBlocks: 0 },
};

function api(overrides: Record<string, () => Response> = {}) {
  return mockFetch((url) => {
    const custom = overrides[url.pathname];
    if (custom) return custom();
    if (url.pathname === '/api/dashboard') return json(dashboard);
    if (url.pathname === '/api/hashrate')
      return json({ points: [{ time: '2026-11-21T00:00:00Z', value: 0 }], unit: 'H/s' });
    if (url.pathname === '/api/miners') return json({ miners: [], undeclared: [] });
    if (url.pathname === '/api/payouts') return json({ items: [], page: 1, pageSize: 5, total: 0 });
    if (url.pathname === '/api/pool/ports') return json({ host: 'pool.manjam.example', ports: [] });
    return undefined;
  });
}

describe('Mining Dashboard', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('says "No user data found" when no user is stored', () => {
    api();
    renderScreen(<DashboardPage />);
    expect(screen.getByText('No user data found')).toBeInTheDocument();
  });

  it('shows the seed error banner when the dashboard call fails', async () => {
    signInForTest();
    api({ '/api/dashboard': () => json({ error: { code: 'internal', message: 'boom' } }, 500) });
    renderScreen(<DashboardPage />);
    expect(
      await screen.findByText('Failed to load dashboard data. Please try again later.'),
    ).toBeInTheDocument();
  });

  it("shows the hashrate per algorithm and the other cards in the user's coin with their changes", async () => {
    signInForTest();
    api();
    renderScreen(<DashboardPage />);
    const hashrate = await screen.findByRole('region', { name: 'Hashrate' });
    // Never summed across algorithms: real-time and 24 h side by side, each labelled.
    expect(within(hashrate).getByRole('region', { name: 'SHA-256' })).toHaveTextContent(
      'Real-time (10 min)125.50 TH/s24 h average120.00 TH/s',
    );
    expect(within(hashrate).getByRole('region', { name: 'Scrypt' })).toHaveTextContent(
      'Real-time (10 min)2.18 kH/s24 h average1.50 kH/s',
    );
    const miners = screen.getByRole('region', { name: 'Active Miners' });
    expect(within(miners).getByText('-3.0%').parentElement).toHaveAttribute('data-tone', 'down');
    // No previous period: a neutral "new", never "+100.0%" in green or "0.0%" in red.
    const balance = screen.getByRole('region', { name: 'Unpaid Balance (LTC)' });
    expect(within(balance).getByText('New: no previous period yet').parentElement).toHaveAttribute(
      'data-tone',
      'neutral',
    );
    const earnings = screen.getByRole('region', { name: '24h Earnings (LTC)' });
    expect(within(earnings).getByText('0.0%').parentElement).toHaveAttribute('data-tone', 'neutral');
    expect(
      within(screen.getByRole('region', { name: 'Unpaid Balance (LTC)' })).getByText('0.012345 LTC'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: '24h Earnings (LTC)' })).getByText('0.00052 LTC'),
    ).toBeInTheDocument();
    expect(await screen.findByText('No miners found. Add a new miner to get started.')).toBeInTheDocument();
    expect(
      await screen.findByText('No hashrate in the last 24 hours yet. Connect a worker to see it here.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Download Miners/ })).toHaveAttribute('target', '_blank');
  });
});

describe('money from the first share on the dashboard', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it("shows today's accrued credits (estimated) and immature block credits under the unpaid balance", async () => {
    signInForTest();
    api();
    renderScreen(<DashboardPage />);
    const balance = await screen.findByRole('region', { name: 'Unpaid Balance (LTC)' });
    expect(within(balance).getByText('Today so far (estimated)')).toBeInTheDocument();
    expect(within(balance).getByText('0.00041 LTC')).toBeInTheDocument();
    expect(within(balance).getByText('Immature block credits')).toBeInTheDocument();
  });

  it('asks for a payout address, linking to the setting, while none is set', async () => {
    signInForTest();
    api({
      '/api/settings': () =>
        json({
          darkMode: true,
          showBalance: true,
          showHashrate: true,
          theme: 'dark',
          language: 'en',
          notifications: true,
          emailAlerts: false,
          emailAlertsAvailable: true,
          twoFactorAuth: false,
          autoLogout: false,
          payouts: UNSET_PAYOUTS,
          rigTokenSet: false,
        }),
    });
    renderScreen(<DashboardPage />);
    expect(await screen.findByText('Set a payout address.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Set payout address' })).toHaveAttribute(
      'href',
      '/settings?tab=wallet',
    );
  });
});

describe('Settings Show Balance / Show Hashrate on the dashboard', { timeout: PAGE_TEST_TIMEOUT }, () => {
  const settings = (showBalance: boolean, showHashrate: boolean) => ({
    darkMode: true,
    showBalance,
    showHashrate,
    theme: 'dark',
    language: 'en',
    notifications: true,
    emailAlerts: false,
    emailAlertsAvailable: true,
    twoFactorAuth: false,
    autoLogout: false,
    payouts: UNSET_PAYOUTS,
    rigTokenSet: false,
  });

  it('hides the balance and earnings (not the hashrate) when Show Balance is off', async () => {
    signInForTest();
    api({ '/api/settings': () => json(settings(false, true)) });
    renderScreen(<DashboardPage />);
    const balance = await screen.findByRole('region', { name: 'Unpaid Balance (LTC)' });
    // The balance, today's accrued credits and the immature block credits are all hidden.
    expect(await within(balance).findAllByRole('img', { name: 'Balance hidden in Settings' })).toHaveLength(
      3,
    );
    expect(within(balance).queryByText('0.012345 LTC')).not.toBeInTheDocument();
    expect(within(balance).queryByText('0.00041 LTC')).not.toBeInTheDocument();
    const earnings = screen.getByRole('region', { name: '24h Earnings (LTC)' });
    expect(within(earnings).queryByText('0.00052 LTC')).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Hashrate' })).getByText('125.50 TH/s'),
    ).toBeInTheDocument();
  });

  it('hides the hashrate (not the balance) when Show Hashrate is off', async () => {
    signInForTest();
    api({ '/api/settings': () => json(settings(true, false)) });
    renderScreen(<DashboardPage />);
    const hashrate = await screen.findByRole('region', { name: 'Hashrate' });
    await within(hashrate).findAllByRole('img', { name: 'Hashrate hidden in Settings' });
    // Both algorithms' real-time and 24 h figures.
    expect(within(hashrate).getAllByRole('img', { name: 'Hashrate hidden in Settings' })).toHaveLength(4);
    expect(within(hashrate).queryByText('125.50 TH/s')).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Unpaid Balance (LTC)' })).getByText('0.012345 LTC'),
    ).toBeInTheDocument();
  });
});

describe('the hashrate chart before the first share', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('asks for the hashrate of the coin the miner prefers, Kaspa too, while no algorithm has any', async () => {
    signInForTest();
    const fetch = api({ '/api/dashboard': () => json({ ...dashboard, hashrates: [], coin: 'KAS' }) });
    renderScreen(<DashboardPage />);
    expect(
      await screen.findByText('No hashrate in the last 24 hours yet. Connect a worker to see it here.'),
    ).toBeInTheDocument();
    const asked = fetch.mock.calls
      .map(([input]) => new URL(input instanceof Request ? input.url : input, 'http://localhost'))
      .filter((url) => url.pathname === '/api/hashrate');
    expect(asked.map((url) => url.searchParams.get('coin'))).toEqual(['KAS']);
  });
});
