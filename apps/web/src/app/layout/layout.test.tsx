import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageReload } from '../../i18n';
import { jsonResponse, renderWithApp, signInForTest, TEST_USER } from '../../../test/render';
import { AppLayout } from './AppLayout';

beforeEach(() => {
  localStorage.setItem('hasVisitedBefore', 'true');
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) =>
      Promise.resolve(
        url.endsWith('/api/me')
          ? jsonResponse(TEST_USER)
          : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
      ),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('top bar', () => {
  it('offers Home, Marketplace, Login and Register to visitors, with no side navigation', () => {
    renderWithApp(<AppLayout />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Home', 'Marketplace', 'Login']);
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(screen.queryByRole('complementary', { name: 'Side navigation' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mining Help' })).toBeInTheDocument();
  });

  it('shows the signed-in links, the avatar initials and Logout to a signed-in user', () => {
    signInForTest();
    renderWithApp(<AppLayout />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Home', 'Dashboard', 'Workers', 'Revenue', 'Marketplace', 'Settings']);
    expect(screen.getByText('SA', { selector: '.avatar' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Logout' })[0]).toHaveAttribute('href', '/logout');
    expect(screen.getByRole('button', { name: 'Notifications' })).toHaveAttribute('aria-haspopup', 'dialog');
  });

  it('stores the chosen language and reloads the page', () => {
    const reload = vi.spyOn(pageReload, 'reload').mockImplementation(() => undefined);
    renderWithApp(<AppLayout />);
    fireEvent.click(screen.getAllByRole('button', { name: 'العربية' })[0] as HTMLElement);
    expect(localStorage.getItem('language')).toBe('ar');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('saves the chosen language to the account of a signed-in user before reloading', async () => {
    signInForTest();
    const reload = vi.spyOn(pageReload, 'reload').mockImplementation(() => undefined);
    const fetchMock = vi.fn((url: string, init: RequestInit = {}) =>
      Promise.resolve(
        init.method === 'PUT' && url === '/api/settings'
          ? jsonResponse({})
          : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<AppLayout />);
    fireEvent.click(screen.getAllByRole('button', { name: 'العربية' })[0] as HTMLElement);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(put?.[1]?.body as string)).toEqual({ language: 'ar' });
    expect(localStorage.getItem('language')).toBe('ar');
  });

  it('shows the notification bell to signed-in users only', () => {
    renderWithApp(<AppLayout />);
    expect(screen.queryByRole('button', { name: 'Notifications' })).not.toBeInTheDocument();
  });

  it('toggles the collapsed menu', () => {
    renderWithApp(<AppLayout />);
    const toggle = screen.getByRole('button', { name: 'Menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
  });

  it('closes the open menu with Escape and puts focus back on its toggle', () => {
    renderWithApp(<AppLayout />);
    const toggle = screen.getByRole('button', { name: 'Menu' });
    fireEvent.click(toggle);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });
});

describe('sidebar', () => {
  it('shows the profile card from GET /api/me and remembers when it is closed', async () => {
    signInForTest({
      ...TEST_USER,
      username: 'x',
      walletAddress: null,
      activeWorkers: 0,
      hashrates: [],
      balance: '0',
    });
    renderWithApp(<AppLayout />);
    const sidebar = screen.getByRole('complementary', { name: 'Side navigation' });
    expect(await within(sidebar).findByText('sahara_miner')).toBeInTheDocument();
    expect(within(sidebar).getByText('bc1qxy...0wlh')).toBeInTheDocument();
    // Per algorithm, real-time and 24 h side by side, each labelled.
    expect(within(sidebar).getByRole('region', { name: 'SHA-256' })).toHaveTextContent(
      '10 min120.00 TH/s24 h118.00 TH/s',
    );
    expect(within(sidebar).getByText('0.012345 BTC')).toBeInTheDocument();
    fireEvent.click(within(sidebar).getByRole('button', { name: 'Collapse sidebar' }));
    expect(localStorage.getItem('sidebarOpen')).toBe('false');
    expect(within(sidebar).queryByText('sahara_miner')).not.toBeInTheDocument();
  });

  it('waits with placeholders, never zeros or TH/s, until GET /api/me answers', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    signInForTest({
      ...TEST_USER,
      username: '',
      walletAddress: null,
      activeWorkers: 0,
      hashrates: [],
      balance: '',
    });
    renderWithApp(<AppLayout />);
    const card = screen.getByRole('region', { name: 'Your profile' });
    expect(card).toHaveTextContent('Miner');
    expect(card).not.toHaveTextContent('TH/s');
    expect(card).not.toHaveTextContent('0.00');
    expect(within(card).queryByText('0')).not.toBeInTheDocument();
    expect(within(card).getAllByText('Loading…')).toHaveLength(3);
  });

  it('says the profile figures could not be loaded when GET /api/me fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(jsonResponse({ error: { code: 'internal', message: 'down' } }, 500))),
    );
    signInForTest();
    renderWithApp(<AppLayout />);
    const card = screen.getByRole('region', { name: 'Your profile' });
    expect(await within(card).findByRole('alert')).toHaveTextContent('These figures could not be loaded.');
    expect(card).not.toHaveTextContent('TH/s');
  });

  it('shows each coin with a balance and no hashrate unit for an account without workers', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        Promise.resolve(
          url.endsWith('/api/me')
            ? jsonResponse({
                ...TEST_USER,
                hashrates: [],
                activeWorkers: 0,
                balances: [
                  { coin: 'BTC', amount: '1234500' },
                  { coin: 'LTC', amount: '150975000000' },
                ],
              })
            : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
        ),
      ),
    );
    signInForTest();
    renderWithApp(<AppLayout />);
    const card = screen.getByRole('region', { name: 'Your profile' });
    expect(await within(card).findByText('1,509.75 LTC')).toBeInTheDocument();
    expect(within(card).getByText('0.012345 BTC')).toBeInTheDocument();
    expect(card).toHaveTextContent('No hashrate yet');
    expect(card).not.toHaveTextContent('TH/s');
  });

  it('alerts on every page when a coin balance above its threshold has no payout address', async () => {
    const payout = (coin: string, address: string | null) => ({
      coin,
      address,
      pendingAddress: null,
      pendingEffectiveAt: null,
      threshold: '10000000',
      minimumThreshold: '100000',
      maximumThreshold: '100000000000',
    });
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        Promise.resolve(
          url.endsWith('/api/me')
            ? jsonResponse({
                ...TEST_USER,
                balances: [
                  { coin: 'BTC', amount: '20000000' },
                  { coin: 'LTC', amount: '150975000000' },
                ],
              })
            : url.endsWith('/api/settings')
              ? jsonResponse({
                  payouts: [payout('BTC', 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh'), payout('LTC', null)],
                })
              : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
        ),
      ),
    );
    signInForTest();
    renderWithApp(<AppLayout />);
    const alert = await screen.findByText('Your LTC balance cannot be paid.');
    expect(alert.closest('[role="alert"]')).toHaveTextContent('1,509.75 LTC is above its payout threshold');
    expect(screen.getByRole('link', { name: 'Set a LTC payout address' })).toHaveAttribute(
      'href',
      '/settings?tab=wallet',
    );
    expect(screen.queryByText('Your BTC balance cannot be paid.')).not.toBeInTheDocument();
  });
});
