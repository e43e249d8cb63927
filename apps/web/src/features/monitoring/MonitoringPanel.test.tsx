import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiToken, Settings, WatchLink } from '../../lib/api-types';
import SettingsPage from '../../pages/settings/SettingsPage';
import { UNSET_PAYOUTS } from '../../../test/payouts';
import { jsonResponse, renderWithApp, signInForTest } from '../../../test/render';

const SETTINGS: Settings = {
  darkMode: true,
  showBalance: true,
  showHashrate: true,
  theme: 'dark',
  language: 'en',
  notifications: true,
  emailAlerts: false,
  emailAlertsAvailable: true,
  twoFactorAuth: true,
  autoLogout: false,
  timeZone: null,
  payouts: UNSET_PAYOUTS,
  rigTokenSet: false,
};

const TOKEN: ApiToken = {
  id: 4,
  name: 'Grafana',
  prefix: 'mj_ro_AbCdEf',
  createdAt: '2026-11-01T10:00:00.000Z',
  expiresAt: null,
  lastUsedAt: '2026-11-20T08:00:00.000Z',
  revokedAt: null,
};
const SECRET = 'mj_ro_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcd';
const LINK: WatchLink = {
  id: 9,
  label: 'Brother',
  token: 'w'.repeat(43),
  coins: ['LTC'],
  pages: ['dashboard', 'payouts'],
  createdAt: '2026-11-02T10:00:00.000Z',
  expiresAt: null,
  lastViewedAt: null,
  revokedAt: null,
};

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

const bodyOf = (fetchMock: ReturnType<typeof serve>, method: string, url: string): unknown => {
  const call = fetchMock.mock.calls.find(([u, init]) => u === url && init?.method === method);
  return JSON.parse(call?.[1]?.body as string) as unknown;
};

beforeEach(() => signInForTest());
afterEach(() => vi.unstubAllGlobals());

describe('settings → monitoring', () => {
  it('creates a read-only token with the password and code, and shows it once in full', async () => {
    let tokens: ApiToken[] = [];
    const fetchMock = serve({
      'GET /api/settings': () => jsonResponse(SETTINGS),
      'GET /api/settings/watch-links': () => jsonResponse({ links: [] }),
      'GET /api/settings/api-tokens': () => jsonResponse({ tokens }),
      'POST /api/settings/api-tokens': () => {
        tokens = [TOKEN];
        return jsonResponse({ ...TOKEN, token: SECRET }, 201);
      },
    });
    renderWithApp(<SettingsPage />, { route: '/settings?tab=monitoring' });
    const section = await screen.findByRole('region', { name: 'Read-only API tokens' });
    expect(await within(section).findByText('No API tokens yet.')).toBeInTheDocument();
    fireEvent.click(within(section).getByRole('button', { name: 'Create token' }));
    expect(await within(section).findByText('Give it a name')).toBeInTheDocument();
    fireEvent.change(within(section).getByLabelText('Token name'), { target: { value: 'Grafana' } });
    fireEvent.change(within(section).getByLabelText(/password/i), { target: { value: 'secret pass' } });
    fireEvent.change(within(section).getByLabelText(/code/i), { target: { value: '123456' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Create token' }));
    expect(await within(section).findByText(SECRET)).toBeInTheDocument();
    expect(within(section).getByText(/shown only this once/)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST', '/api/settings/api-tokens')).toEqual({
      name: 'Grafana',
      expiresInDays: 90,
      password: 'secret pass',
      totp: '123456',
    });
    expect(await within(section).findByText('mj_ro_AbCdEf…')).toBeInTheDocument();
  });

  it('revokes a token and a watcher link from their lists', async () => {
    const fetchMock = serve({
      'GET /api/settings': () => jsonResponse(SETTINGS),
      'GET /api/settings/watch-links': () => jsonResponse({ links: [LINK] }),
      'GET /api/settings/api-tokens': () => jsonResponse({ tokens: [TOKEN] }),
      'DELETE /api/settings/api-tokens/4': () => jsonResponse(undefined, 204),
      'DELETE /api/settings/watch-links/9': () => jsonResponse(undefined, 204),
    });
    renderWithApp(<SettingsPage />, { route: '/settings?tab=monitoring' });
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Grafana' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Brother' }));
    await waitFor(() => {
      const deletes = fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE');
      expect(deletes.map(([url]) => url).sort()).toEqual([
        '/api/settings/api-tokens/4',
        '/api/settings/watch-links/9',
      ]);
    });
  });

  it('creates a watcher link of the chosen coins and pages, and refuses one with no coin', async () => {
    const fetchMock = serve({
      'GET /api/settings': () => jsonResponse(SETTINGS),
      'GET /api/settings/watch-links': () => jsonResponse({ links: [] }),
      'GET /api/settings/api-tokens': () => jsonResponse({ tokens: [] }),
      'POST /api/settings/watch-links': () => jsonResponse(LINK, 201),
    });
    renderWithApp(<SettingsPage />, { route: '/settings?tab=monitoring' });
    const section = await screen.findByRole('region', { name: 'Watcher links' });
    const coins = within(section).getByRole('group', { name: 'Coins it shows' });
    for (const box of within(coins).getAllByRole('checkbox')) fireEvent.click(box);
    fireEvent.change(within(section).getByLabelText('Label'), { target: { value: 'Brother' } });
    fireEvent.change(within(section).getByLabelText(/password/i), { target: { value: 'pw' } });
    fireEvent.change(within(section).getByLabelText(/code/i), { target: { value: '654321' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Create watcher link' }));
    expect(await within(section).findByText('Choose at least one coin')).toBeInTheDocument();
    fireEvent.click(within(coins).getByRole('checkbox', { name: 'LTC' }));
    const pages = within(section).getByRole('group', { name: 'Pages it shows' });
    fireEvent.click(within(pages).getByRole('checkbox', { name: 'Workers' }));
    fireEvent.click(within(section).getByRole('button', { name: 'Create watcher link' }));
    await waitFor(() =>
      expect(bodyOf(fetchMock, 'POST', '/api/settings/watch-links')).toEqual({
        label: 'Brother',
        coins: ['LTC'],
        pages: ['dashboard', 'payouts'],
        expiresInDays: null,
        password: 'pw',
        totp: '654321',
      }),
    );
  });

  it('reads in Arabic, with the link kept left to right', async () => {
    serve({
      'GET /api/settings': () => jsonResponse({ ...SETTINGS, language: 'ar' }),
      'GET /api/settings/watch-links': () => jsonResponse({ links: [LINK] }),
      'GET /api/settings/api-tokens': () => jsonResponse({ tokens: [TOKEN] }),
    });
    renderWithApp(<SettingsPage />, { route: '/settings?tab=monitoring', lang: 'ar' });
    expect(await screen.findByRole('region', { name: 'روابط المتابعة' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'رموز الواجهة البرمجية للقراءة فقط' })).toBeInTheDocument();
    const url = await screen.findByText(`${window.location.origin}/watch/${LINK.token}`);
    expect(url.tagName).toBe('BDI');
    expect(url).toHaveAttribute('dir', 'ltr');
    expect(screen.getByText('mj_ro_AbCdEf…')).toHaveAttribute('dir', 'ltr');
    expect(screen.getByRole('button', { name: 'إلغاء Grafana' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'المتابعة' })).toHaveAttribute('aria-selected', 'true');
  });
});
