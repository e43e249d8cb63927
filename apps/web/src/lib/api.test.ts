import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, signInForTest } from '../../test/render';
import { ApiError, apiFetch } from './api';
import { getAuthSnapshot, signOutReason } from './auth';

afterEach(() => vi.unstubAllGlobals());

describe('apiFetch', () => {
  it('sends the bearer token, the language and a JSON body', async () => {
    signInForTest();
    localStorage.setItem('language', 'ar');
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiFetch('/api/settings', { method: 'PUT', body: { theme: 'light' } })).resolves.toEqual({
      ok: true,
    });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    const headers = new Headers(init.headers);
    expect(url).toBe('/api/settings');
    expect(init.method).toBe('PUT');
    expect(headers.get('Authorization')).toBe('Bearer test-token');
    expect(headers.get('Accept-Language')).toBe('ar');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init.body).toBe('{"theme":"light"}');
  });

  it('sends no Authorization header to a visitor', async () => {
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse({}));
    vi.stubGlobal('fetch', fetchMock);
    await apiFetch('/api/pool/stats');
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(new Headers(init.headers).has('Authorization')).toBe(false);
  });

  it('resolves a 204 with no body', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(null, { status: 204 })));
    await expect(apiFetch('/api/auth/logout', { method: 'POST' })).resolves.toBeUndefined();
  });

  it('turns the error shape into an ApiError with status, code, message and fields', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        jsonResponse(
          {
            error: {
              code: 'validation',
              message: 'Check the form',
              fields: { email: 'Please enter a valid email' },
            },
          },
          400,
        ),
      ),
    );
    const error = await apiFetch('/api/auth/register', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation',
      message: 'Check the form',
      fields: { email: 'Please enter a valid email' },
    });
  });

  it('reports a network failure as status 0 with code network-error', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const error = await apiFetch('/api/me').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: 'network-error', isNetworkError: true });
  });

  it('reports a non-JSON error page as bad-response with its status', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    const error = await apiFetch('/api/me').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: 'bad-response' });
  });

  it('signs a user out when the server answers 401', async () => {
    signInForTest();
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(
          jsonResponse({ error: { code: 'unauthorized', message: 'Session expired' } }, 401),
        ),
    );
    await expect(apiFetch('/api/me')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(getAuthSnapshot().isSignedIn).toBe(false);
  });

  it('remembers that Auto Logout ended the session when the server answers 401 session-idle', async () => {
    signInForTest();
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(
          jsonResponse({ error: { code: 'session-idle', message: 'You were logged out' } }, 401),
        ),
    );
    await expect(apiFetch('/api/me')).rejects.toMatchObject({ status: 401, code: 'session-idle' });
    expect(getAuthSnapshot().isSignedIn).toBe(false);
    expect(signOutReason()).toBe('idle');
    // A plain 401 (a revoked or unknown session) gives no such reason.
    signInForTest();
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(jsonResponse({ error: { code: 'unauthorized', message: 'Log in' } }, 401)),
    );
    await expect(apiFetch('/api/me')).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    expect(signOutReason()).toBeNull();
  });
});
