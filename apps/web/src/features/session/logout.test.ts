import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from '../../../test/fakePush';
import { jsonResponse, signInForTest } from '../../../test/render';
import { logout } from './logout';

beforeEach(() => signInForTest());
afterEach(() => vi.unstubAllGlobals());

describe('logout', () => {
  it('removes this browser push subscription before ending the session, so the next person gets no alerts', async () => {
    const browser = fakeBrowser('granted');
    browser.setSubscribed(true);
    const fetchMock = vi.fn((_url: string, init: RequestInit = {}) =>
      Promise.resolve(
        init.method === 'DELETE' || init.method === 'POST'
          ? new Response(null, { status: 204 })
          : jsonResponse({}, 404),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    await logout();
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${url}`)).toEqual([
      'DELETE /api/notifications/push-subscription',
      'POST /api/auth/logout',
    ]);
    expect(localStorage.getItem('token')).toBeNull();
  });
});
