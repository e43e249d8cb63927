import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithApp, signInForTest } from '../../test/render';
import { AUTO_LOGOUT_MS, AutoLogout } from './AutoLogout';

async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function serve(autoLogout: boolean) {
  const fetchMock = vi.fn((url: string) =>
    Promise.resolve(
      url === '/api/settings'
        ? jsonResponse({ autoLogout, theme: 'dark' })
        : new Response(null, { status: 204 }),
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

beforeEach(() => {
  vi.useFakeTimers();
  signInForTest();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('auto logout', () => {
  it('signs the user out after 30 minutes without activity and takes them to /login, which says why', async () => {
    const fetchMock = serve(true);
    renderWithApp(<AutoLogout />, { route: '/dashboard' });
    await advance(10);
    await advance(AUTO_LOGOUT_MS - 1000);
    expect(localStorage.getItem('token')).toBe('test-token');
    await advance(1000);
    expect(localStorage.getItem('token')).toBeNull();
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/logout', expect.objectContaining({ method: 'POST' }));
    // Lands on /login, which reads why (the notice itself: LoginPage.test.tsx).
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    expect(localStorage.getItem('signOutReason')).toBe('idle');
  });

  it('starts the 30 minutes again on each key press or click', async () => {
    serve(true);
    renderWithApp(<AutoLogout />, { route: '/dashboard' });
    await advance(10);
    await advance(AUTO_LOGOUT_MS - 60_000);
    fireEvent.keyDown(window, { key: 'a' });
    await advance(AUTO_LOGOUT_MS - 60_000);
    expect(localStorage.getItem('token')).toBe('test-token');
  });

  it('keeps the user signed in when Auto Logout is off', async () => {
    serve(false);
    renderWithApp(<AutoLogout />, { route: '/dashboard' });
    await advance(AUTO_LOGOUT_MS * 2);
    expect(localStorage.getItem('token')).toBe('test-token');
  });
});
