import { render, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser, PUBLIC_KEY } from '../../test/fakePush';
import { pageReload } from '../i18n';
import type { Settings } from '../lib/api-types';
import { signIn } from '../lib/auth';
import { jsonResponse, signInForTest, TEST_USER } from '../../test/render';
import { adoptLanguage, LanguageAdoption, resetLanguageAdoption } from './LanguageAdoption';
import { UNSET_PAYOUTS } from '../../test/payouts';

const SETTINGS: Settings = {
  darkMode: true,
  showBalance: true,
  showHashrate: true,
  theme: 'dark',
  language: 'ar',
  notifications: true,
  emailAlerts: false,
  emailAlertsAvailable: true,
  twoFactorAuth: false,
  autoLogout: true,
  timeZone: null,
  payouts: UNSET_PAYOUTS,
  rigTokenSet: false,
};

function renderAdoption() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <LanguageAdoption />
    </QueryClientProvider>,
  );
}

function serveSettings(settings: Settings) {
  const fetchMock = vi.fn((url: string) =>
    Promise.resolve(
      url === '/api/settings'
        ? jsonResponse(settings)
        : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

let reload: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  resetLanguageAdoption();
  reload = vi.spyOn(pageReload, 'reload').mockImplementation(() => undefined);
});
afterEach(() => vi.unstubAllGlobals());

describe('language adoption', () => {
  it('switches a signed-in browser to the language saved on the account, with one reload', async () => {
    localStorage.setItem('language', 'en');
    signInForTest();
    serveSettings(SETTINGS);
    renderAdoption();
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(localStorage.getItem('language')).toBe('ar');
  });

  it('adopts the language right after login', async () => {
    localStorage.setItem('language', 'en');
    const fetchMock = serveSettings(SETTINGS);
    renderAdoption();
    expect(fetchMock).not.toHaveBeenCalled();
    signIn('fresh-token', TEST_USER);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(localStorage.getItem('language')).toBe('ar');
  });

  it('does not reload when the browser already uses the saved language', async () => {
    localStorage.setItem('language', 'ar');
    signInForTest();
    const fetchMock = serveSettings(SETTINGS);
    renderAdoption();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/settings', expect.anything()));
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(reload).not.toHaveBeenCalled();
  });

  it('never reloads twice in one page load, even if the language is changed back meanwhile', () => {
    localStorage.setItem('language', 'en');
    expect(adoptLanguage('ar')).toBe(true);
    localStorage.setItem('language', 'en');
    expect(adoptLanguage('ar')).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does not reload when the browser cannot store the language, so it cannot loop', () => {
    localStorage.setItem('language', 'en');
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('Quota exceeded', 'QuotaExceededError');
    });
    expect(adoptLanguage('ar')).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it('saves this browser push subscription again after sign-in when permission was granted before', async () => {
    localStorage.setItem('language', 'ar');
    signInForTest();
    const browser = fakeBrowser('granted');
    const fetchMock = vi.fn((url: string, init: RequestInit = {}) => {
      if (url === '/api/settings') return Promise.resolve(jsonResponse(SETTINGS));
      if (url === '/api/notifications/push-key')
        return Promise.resolve(jsonResponse({ publicKey: PUBLIC_KEY }));
      return Promise.resolve(
        init.method === 'PUT' ? new Response(null, { status: 204 }) : jsonResponse({}, 404),
      );
    });
    vi.stubGlobal('fetch', fetchMock);
    renderAdoption();
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([url, init]) => url === '/api/notifications/push-subscription' && init?.method === 'PUT',
        ),
      ).toBe(true),
    );
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });

  it('leaves visitors alone', () => {
    const fetchMock = serveSettings(SETTINGS);
    renderAdoption();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });
});
