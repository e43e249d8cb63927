import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithApp, TEST_USER } from '../../../test/render';
import LoginPage from './LoginPage';

/** Stubs fetch with `mock` for every call but the page's GET /api/auth/help (a pool that sends email). */
function stubFetch(mock: (url: string, init?: RequestInit) => unknown): void {
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) =>
    url === '/api/auth/help'
      ? Promise.resolve(jsonResponse({ email: true, contact: null }))
      : mock(url, init),
  );
}

function fillAndSubmit(email: string, password: string): void {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Login' }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('login', () => {
  it('requires an email and a password before calling the server', () => {
    const fetchMock = vi.fn();
    stubFetch(fetchMock);
    renderWithApp(<LoginPage />, { route: '/login' });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the messages in Arabic', () => {
    stubFetch(vi.fn());
    renderWithApp(<LoginPage />, { route: '/login', lang: 'ar' });
    fireEvent.click(screen.getByRole('button', { name: 'تسجيل الدخول' }));
    expect(screen.getByText('البريد الإلكتروني مطلوب')).toBeInTheDocument();
    expect(screen.getByText('كلمة المرور مطلوبة')).toBeInTheDocument();
  });

  it("shows the server's message when the credentials are wrong", async () => {
    stubFetch(
      vi.fn().mockResolvedValue(
        jsonResponse(
          {
            error: { code: 'invalid-credentials', message: 'Login failed. Please check your credentials.' },
          },
          401,
        ),
      ),
    );
    renderWithApp(<LoginPage />, { route: '/login' });
    fillAndSubmit('miner@example.com', 'wrong password');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Login failed. Please check your credentials.',
    );
    expect(localStorage.getItem('token')).toBeNull();
  });

  it("says in the reader's language that this place is throttled (429 too-many-attempts)", async () => {
    const throttled = () =>
      jsonResponse({ error: { code: 'too-many-attempts', message: 'server text' } }, 429);
    stubFetch(vi.fn().mockImplementation(() => Promise.resolve(throttled())));
    const view = renderWithApp(<LoginPage />, { route: '/login' });
    fillAndSubmit('miner@example.com', 'whatever1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many failed sign-in attempts from here. Wait a little and try again',
    );
    view.unmount();
    renderWithApp(<LoginPage />, { route: '/login', lang: 'ar' });
    fireEvent.change(screen.getByLabelText('البريد الإلكتروني'), { target: { value: 'miner@example.com' } });
    fireEvent.change(screen.getByLabelText('كلمة المرور'), { target: { value: 'whatever1' } });
    fireEvent.click(screen.getByRole('button', { name: 'تسجيل الدخول' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('محاولات دخول فاشلة كثيرة من هنا.');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('falls back to the standard message when the server gives none', async () => {
    stubFetch(vi.fn().mockResolvedValue(new Response('', { status: 500 })));
    renderWithApp(<LoginPage />, { route: '/login' });
    fillAndSubmit('miner@example.com', 'whatever1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Login failed. Please check your credentials.',
    );
  });

  it('shows an error and signs nobody in when the network fails (no demo user)', async () => {
    stubFetch(vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    renderWithApp(<LoginPage />, { route: '/login' });
    fillAndSubmit('miner@example.com', 'whatever1');
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot reach the Manjam server');
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('asks for a two-factor code when the server requires one', async () => {
    stubFetch(
      vi
        .fn()
        .mockResolvedValue(
          jsonResponse({ error: { code: 'totp-required', message: 'Enter your two-factor code.' } }, 401),
        ),
    );
    renderWithApp(<LoginPage />, { route: '/login' });
    fillAndSubmit('miner@example.com', 'whatever1');
    expect(await screen.findByLabelText('Two-factor code')).toBeInTheDocument();
  });

  it('signs in with a recovery code in place of the two-factor code, in Arabic', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        jsonResponse({ error: { code: 'totp-required', message: 'أدخل الرمز من تطبيق المصادقة' } }, 401),
      )
      .mockResolvedValue(jsonResponse({ token: 'tok-2', user: TEST_USER }));
    stubFetch(fetchMock);
    renderWithApp(<LoginPage />, { route: '/login', lang: 'ar' });
    fireEvent.change(screen.getByLabelText('البريد الإلكتروني'), { target: { value: 'miner@example.com' } });
    fireEvent.change(screen.getByLabelText('كلمة المرور'), { target: { value: 'correct horse' } });
    fireEvent.submit(screen.getByLabelText('كلمة المرور').closest('form') as HTMLFormElement);
    fireEvent.click(await screen.findByRole('button', { name: 'استخدم رمز استرداد بدلًا من ذلك' }));
    const field = screen.getByLabelText('رمز الاسترداد');
    expect(field).toHaveAttribute('dir', 'ltr');
    expect(field).toHaveAttribute('maxLength', '24');
    fireEvent.change(field, { target: { value: 'k7m2-9qhx-3t0v-a8pd' } });
    fireEvent.submit(field.closest('form') as HTMLFormElement);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(JSON.parse((fetchMock.mock.calls[1] as [string, RequestInit])[1].body as string)).toEqual({
      email: 'miner@example.com',
      password: 'correct horse',
      totp: 'k7m2-9qhx-3t0v-a8pd',
    });
  });

  it('shows Logging in..., then a success message, stores token and user, and opens /dashboard after 1 second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubFetch(vi.fn().mockResolvedValue(jsonResponse({ token: 'tok-1', user: TEST_USER })));
    renderWithApp(<LoginPage />, { route: '/login' });
    fillAndSubmit('miner@example.com', 'correct horse');
    expect(screen.getByRole('button', { name: 'Logging in...' })).toBeDisabled();
    expect(await screen.findByText('Login successful! Taking you to your dashboard...')).toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(1000);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(localStorage.getItem('token')).toBe('tok-1');
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ username: 'sahara_miner' });
  });

  it.each([
    [
      'en',
      'You were logged out after 30 minutes of inactivity (Auto Logout in Settings → Security). Log in again to continue.',
    ],
    [
      'ar',
      'تم تسجيل خروجك بعد 30 دقيقة من عدم النشاط (تسجيل الخروج التلقائي في الإعدادات ← الأمان). سجّل الدخول مجددًا للمتابعة.',
    ],
  ] as const)(
    'says the session ended by Auto Logout when that is why the miner is here, once (%s)',
    (lang, notice) => {
      stubFetch(vi.fn());
      localStorage.setItem('signOutReason', 'idle');
      const { unmount } = renderWithApp(<LoginPage />, { route: '/login', lang });
      expect(screen.getByText(notice)).toHaveAttribute('role', 'status');
      unmount();
      renderWithApp(<LoginPage />, { route: '/login', lang });
      expect(screen.queryByText(notice)).not.toBeInTheDocument();
    },
  );
});
