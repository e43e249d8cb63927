import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, signInForTest } from '../../../test/render';
import { fakeBrowser, PUBLIC_KEY, PUBLIC_KEY_BYTES, SUBSCRIPTION_JSON } from '../../../test/fakePush';
import { base64UrlToBytes, disablePush, enablePush, syncPush } from './push';

function serve(routes: Record<string, (init: RequestInit) => Response>) {
  const fetchMock = vi.fn((url: string, init: RequestInit = {}) => {
    const handler = routes[`${init.method ?? 'GET'} ${url}`];
    return Promise.resolve(
      handler ? handler(init) : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const calls = (fetchMock: ReturnType<typeof serve>) =>
  fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${url}`);

beforeEach(() => signInForTest());
afterEach(() => vi.unstubAllGlobals());

describe('browser push', () => {
  it('decodes the base64url VAPID key into its 65 bytes', () => {
    expect(Array.from(base64UrlToBytes(PUBLIC_KEY))).toEqual(Array.from(PUBLIC_KEY_BYTES));
    expect(() => base64UrlToBytes('not base64url!')).toThrow('Not base64url');
  });

  it('asks for permission, registers /sw.js, subscribes with the pool key and saves the subscription', async () => {
    const browser = fakeBrowser('default', 'granted');
    const fetchMock = serve({
      'GET /api/notifications/push-key': () => jsonResponse({ publicKey: PUBLIC_KEY }),
      'PUT /api/notifications/push-subscription': () => new Response(null, { status: 204 }),
    });
    await expect(enablePush()).resolves.toBe('subscribed');
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.register).toHaveBeenCalledWith('/sw.js');
    const options = browser.subscribe.mock.calls[0]?.[0] as PushSubscriptionOptionsInit;
    expect(options.userVisibleOnly).toBe(true);
    expect(Array.from(options.applicationServerKey as Uint8Array)).toEqual(Array.from(PUBLIC_KEY_BYTES));
    expect(calls(fetchMock)).toEqual([
      'GET /api/notifications/push-key',
      'PUT /api/notifications/push-subscription',
    ]);
    expect(JSON.parse(fetchMock.mock.calls[1]?.[1]?.body as string)).toEqual(SUBSCRIPTION_JSON);
  });

  it('reports a refused permission and subscribes nothing', async () => {
    const browser = fakeBrowser('default', 'denied');
    const fetchMock = serve({});
    await expect(enablePush()).resolves.toBe('denied');
    expect(browser.register).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reports a browser without push support', async () => {
    vi.stubGlobal('PushManager', undefined);
    await expect(enablePush()).resolves.toBe('unsupported');
  });

  it('reports a failure when the server does not accept the subscription', async () => {
    fakeBrowser('granted');
    serve({
      'GET /api/notifications/push-key': () => jsonResponse({ publicKey: PUBLIC_KEY }),
      'PUT /api/notifications/push-subscription': () =>
        jsonResponse(
          { error: { code: 'validation-failed', message: 'Push endpoint must be an https URL' } },
          400,
        ),
    });
    await expect(enablePush()).resolves.toBe('failed');
  });

  it('unsubscribes this browser and deletes the subscription on the server', async () => {
    const browser = fakeBrowser('granted');
    browser.setSubscribed(true);
    const fetchMock = serve({
      'DELETE /api/notifications/push-subscription': () => new Response(null, { status: 204 }),
    });
    await expect(disablePush()).resolves.toBe('unsubscribed');
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1);
    expect(calls(fetchMock)).toEqual(['DELETE /api/notifications/push-subscription']);
    expect(JSON.parse(fetchMock.mock.calls[0]?.[1]?.body as string)).toEqual({
      endpoint: SUBSCRIPTION_JSON.endpoint,
    });
  });

  it('treats a subscription the server no longer knows as already removed', async () => {
    fakeBrowser('granted').setSubscribed(true);
    serve({});
    await expect(disablePush()).resolves.toBe('unsubscribed');
  });

  it('does not prompt when an unchanged setting is saved and permission was never given', async () => {
    const browser = fakeBrowser('default', 'granted');
    const fetchMock = serve({});
    await expect(syncPush(true, false)).resolves.toBeNull();
    await expect(syncPush(false, false)).resolves.toBeNull();
    expect(browser.requestPermission).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
