import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser, PUBLIC_KEY } from '../../../test/fakePush';
import type { Settings } from '../../lib/api-types';
import { jsonResponse, renderWithApp, signInForTest } from '../../../test/render';
import SettingsPage from './SettingsPage';
import { UNSET_PAYOUTS } from '../../../test/payouts';

const SETTINGS: Settings = {
  darkMode: true,
  showBalance: true,
  showHashrate: true,
  theme: 'dark',
  language: 'en',
  notifications: false,
  emailAlerts: false,
  emailAlertsAvailable: true,
  twoFactorAuth: false,
  autoLogout: true,
  timeZone: null,
  payouts: UNSET_PAYOUTS,
  rigTokenSet: false,
};

function serveSettings(initial: Settings) {
  let saved = initial;
  const fetchMock = vi.fn((url: string, init: RequestInit = {}) => {
    const route = `${init.method ?? 'GET'} ${url}`;
    if (route === 'GET /api/settings') return Promise.resolve(jsonResponse(saved));
    if (route === 'PUT /api/settings') {
      saved = { ...saved, ...(JSON.parse(init.body as string) as Partial<Settings>) };
      return Promise.resolve(jsonResponse(saved));
    }
    if (route === 'GET /api/notifications/push-key')
      return Promise.resolve(jsonResponse({ publicKey: PUBLIC_KEY }));
    if (route.endsWith(' /api/notifications/push-subscription'))
      return Promise.resolve(new Response(null, { status: 204 }));
    return Promise.resolve(jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function savePush(): Promise<void> {
  fireEvent.click(await screen.findByRole('tab', { name: 'Notifications' }));
  fireEvent.click(screen.getByRole('switch', { name: 'Push Notifications' }));
  fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
}

beforeEach(() => signInForTest());
afterEach(() => vi.unstubAllGlobals());

describe('push notifications in settings', () => {
  it('subscribes this browser when Push Notifications is saved on', async () => {
    fakeBrowser('default', 'granted');
    const fetchMock = serveSettings(SETTINGS);
    renderWithApp(<SettingsPage />, { route: '/settings' });
    await savePush();
    expect(
      await screen.findByText('This browser will now show your alerts as push notifications.'),
    ).toBeInTheDocument();
    const routes = fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${url}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'PUT /api/settings',
        'GET /api/notifications/push-key',
        'PUT /api/notifications/push-subscription',
      ]),
    );
  });

  it('unsubscribes this browser when Push Notifications is saved off', async () => {
    const browser = fakeBrowser('granted');
    browser.setSubscribed(true);
    const fetchMock = serveSettings({ ...SETTINGS, notifications: true });
    renderWithApp(<SettingsPage />, { route: '/settings' });
    await savePush();
    expect(
      await screen.findByText('This browser will no longer show push notifications.'),
    ).toBeInTheDocument();
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1);
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => url === '/api/notifications/push-subscription' && init?.method === 'DELETE',
      ),
    ).toBe(true);
  });

  it('explains a blocked permission in Arabic and keeps the saved choice', async () => {
    fakeBrowser('denied');
    serveSettings(SETTINGS);
    renderWithApp(<SettingsPage />, { route: '/settings', lang: 'ar' });
    fireEvent.click(await screen.findByRole('tab', { name: 'الإشعارات' }));
    const toggle = screen.getByRole('switch', { name: 'الإشعارات الفورية' });
    fireEvent.click(toggle);
    fireEvent.click(screen.getByRole('button', { name: 'حفظ التغييرات' }));
    expect(await screen.findByText(/الإشعارات محظورة لهذا الموقع/)).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'true');
  });

  it('says when the browser cannot do push at all', async () => {
    serveSettings(SETTINGS);
    renderWithApp(<SettingsPage />, { route: '/settings' });
    await savePush();
    expect(await screen.findByText(/This browser does not support push notifications/)).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Push Notifications' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
  });
});
