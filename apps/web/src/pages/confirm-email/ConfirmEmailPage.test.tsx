import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithApp } from '../../../test/render';
import ConfirmEmailPage from './ConfirmEmailPage';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the confirmation link of a registration', () => {
  it('sends the token from the link once and says the account is ready, with the way to sign in', async () => {
    const fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<ConfirmEmailPage />, { route: '/confirm-email#token=abcdefghijklmnopqrstuvwxyz' });
    expect(await screen.findByText(/^Your email is confirmed and your account is ready\./)).toHaveAttribute(
      'role',
      'status',
    );
    expect(screen.getByRole('link', { name: 'Go to login' })).toHaveAttribute('href', '/login');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toMatch(/\/api\/auth\/confirm-email$/);
    expect(JSON.parse(init.body as string)).toEqual({ token: 'abcdefghijklmnopqrstuvwxyz' });
  });

  it('says a used or expired link is not valid any more, in Arabic too', async () => {
    const invalid = () =>
      jsonResponse({ error: { code: 'confirmation-invalid', message: 'server text' } }, 400);
    vi.stubGlobal(
      'fetch',
      vi.fn().mockImplementation(() => Promise.resolve(invalid())),
    );
    const view = renderWithApp(<ConfirmEmailPage />, { route: '/confirm-email#token=used-token-used-token' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This confirmation link is not valid any more.',
    );
    expect(screen.getByRole('link', { name: 'Register again' })).toHaveAttribute('href', '/register');
    view.unmount();
    renderWithApp(<ConfirmEmailPage />, { route: '/confirm-email#token=used-token-used-token', lang: 'ar' });
    expect(await screen.findByRole('alert')).toHaveTextContent('رابط التأكيد هذا لم يعد صالحًا.');
  });
});

describe('the confirmation link of an email change', () => {
  it('sends the token to the email-change endpoint once and says the sign-in email changed, with the way back to Settings', async () => {
    const fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<ConfirmEmailPage />, { route: '/confirm-email#change=abcdefghijklmnopqrstuvwxyz' });
    expect(await screen.findByText(/^Your sign-in email is changed\./)).toHaveAttribute('role', 'status');
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toMatch(/\/api\/auth\/email\/confirm$/);
    expect(JSON.parse(init.body as string)).toEqual({ token: 'abcdefghijklmnopqrstuvwxyz' });
  });

  it('says when another account took the address first, in Arabic too', async () => {
    const taken = () => jsonResponse({ error: { code: 'email-taken', message: 'server text' } }, 409);
    vi.stubGlobal(
      'fetch',
      vi.fn().mockImplementation(() => Promise.resolve(taken())),
    );
    const view = renderWithApp(<ConfirmEmailPage />, {
      route: '/confirm-email#change=taken-token-taken-token',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Another account took this email address');
    view.unmount();
    renderWithApp(<ConfirmEmailPage />, {
      route: '/confirm-email#change=taken-token-taken-token',
      lang: 'ar',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('أخذ حساب آخر عنوان البريد هذا');
  });
});
