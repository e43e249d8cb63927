import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithApp } from '../../../test/render';
import LoginPage from '../login/LoginPage';
import SupportPage from '../support/SupportPage';
import ForgotPasswordPage from './ForgotPasswordPage';

type Handler = (init: RequestInit) => Response | Promise<Response>;

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

const bodyOf = (fetchMock: ReturnType<typeof serve>, url: string): unknown => {
  const call = fetchMock.mock.calls.find(([called]) => called === url);
  return JSON.parse(call?.[1]?.body as string);
};

afterEach(() => vi.unstubAllGlobals());

describe('forgot password on a pool that sends email', () => {
  it('mails a reset link to the email typed and says it is on its way', async () => {
    const fetchMock = serve({
      'GET /api/auth/help': () => jsonResponse({ email: true, contact: null }),
      'POST /api/auth/password-reset': () => new Response(null, { status: 204 }),
    });
    renderWithApp(<ForgotPasswordPage />, { route: '/forgot-password' });
    fireEvent.click(await screen.findByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: ' miner@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(
      await screen.findByText(
        /^If miner@example\.com belongs to a Manjam account, a link to choose a new password is on its way\./,
      ),
    ).toHaveAttribute('role', 'status');
    expect(bodyOf(fetchMock, '/api/auth/password-reset')).toEqual({ email: 'miner@example.com' });
  });

  it('sets the new password of a reset link and points to the login', async () => {
    const fetchMock = serve({
      'POST /api/auth/password-reset/confirm': () => new Response(null, { status: 204 }),
    });
    renderWithApp(<ForgotPasswordPage />, { route: '/forgot-password#reset=abcdefghijklmnopqrstuvwxyz' });
    expect(screen.getByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a new passphrase' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), {
      target: { value: 'a new passphrase!' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Confirm new password'), {
      target: { value: 'a new passphrase' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText(/^Your password has been changed/)).toHaveAttribute('role', 'status');
    expect(screen.getByRole('link', { name: 'Go to login' })).toHaveAttribute('href', '/login');
    expect(bodyOf(fetchMock, '/api/auth/password-reset/confirm')).toEqual({
      token: 'abcdefghijklmnopqrstuvwxyz',
      newPassword: 'a new passphrase',
    });
  });

  it('says a used link is not valid any more and offers a new one, in Arabic', async () => {
    serve({
      'POST /api/auth/password-reset/confirm': () =>
        jsonResponse(
          {
            error: {
              code: 'reset-link-invalid',
              message: 'رابط إعادة تعيين كلمة المرور هذا لم يعد صالحًا. اطلب رابطًا جديدًا.',
            },
          },
          400,
        ),
    });
    renderWithApp(<ForgotPasswordPage />, {
      route: '/forgot-password#reset=used-token-used-token',
      lang: 'ar',
    });
    fireEvent.change(screen.getByLabelText('كلمة المرور الجديدة'), { target: { value: 'a new passphrase' } });
    fireEvent.change(screen.getByLabelText('تأكيد كلمة المرور الجديدة'), {
      target: { value: 'a new passphrase' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'عيّن كلمة المرور الجديدة' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'رابط إعادة تعيين كلمة المرور هذا لم يعد صالحًا.',
    );
    expect(screen.getByRole('link', { name: 'اطلب رابطًا جديدًا' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });
});

describe('a pool that sends no email', () => {
  const noEmail = (contact: string | null) => ({
    'GET /api/auth/help': () => jsonResponse({ email: false, contact }),
  });

  it('says on "Forgot password" that it cannot reset by email and names the operator contact as a mail link', async () => {
    serve(noEmail('help@pool.example'));
    renderWithApp(<ForgotPasswordPage />, { route: '/forgot-password' });
    expect(
      await screen.findByText(/^This pool does not send email, so a password cannot be reset here\./),
    ).toBeInTheDocument();
    expect(screen.getByTestId('operator-contact')).toHaveTextContent(
      'Contact the pool operator: help@pool.example',
    );
    expect(screen.getByRole('link', { name: 'help@pool.example' })).toHaveAttribute(
      'href',
      'mailto:help@pool.example',
    );
    expect(screen.queryByRole('button', { name: 'Send reset link' })).not.toBeInTheDocument();
  });

  it('names the contact under the login form, in Arabic with the link left to right', async () => {
    serve(noEmail('https://t.me/manjam_pool'));
    renderWithApp(<LoginPage />, { route: '/login', lang: 'ar' });
    expect(
      await screen.findByText(
        'هذا المجمع لا يرسل بريدًا إلكترونيًا: لإعادة تعيين كلمة المرور تواصل مع مشغّل المجمع.',
      ),
    ).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'https://t.me/manjam_pool' });
    expect(link).toHaveAttribute('href', 'https://t.me/manjam_pool');
    expect(link.firstElementChild).toHaveAttribute('dir', 'ltr');
    expect(screen.getByTestId('operator-contact')).toHaveTextContent('تواصل مع مشغّل المجمع:');
  });

  it('shows no contact note on the login page of a pool that sends email', async () => {
    const fetchMock = serve({
      'GET /api/auth/help': () => jsonResponse({ email: true, contact: 'help@pool.example' }),
    });
    renderWithApp(<LoginPage />, { route: '/login' });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByTestId('operator-contact')).not.toBeInTheDocument();
  });
});

describe('the support page', () => {
  it('names the operator contact, a handle as plain text', async () => {
    serve({ 'GET /api/auth/help': () => jsonResponse({ email: true, contact: '@manjam_support' }) });
    renderWithApp(<SupportPage />, { route: '/support' });
    expect(await screen.findByTestId('operator-contact')).toHaveTextContent(
      'Contact the pool operator: @manjam_support',
    );
    expect(screen.queryByRole('link', { name: '@manjam_support' })).not.toBeInTheDocument();
  });

  it('says plainly when the operator published no contact, in Arabic', async () => {
    serve({ 'GET /api/auth/help': () => jsonResponse({ email: false, contact: null }) });
    renderWithApp(<SupportPage />, { route: '/support', lang: 'ar' });
    expect(await screen.findByTestId('operator-contact')).toHaveTextContent(
      'لم ينشر مشغّل هذا المجمع عنوانًا للتواصل بعد.',
    );
  });
});
