import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../lib/api-types';
import SettingsPage from '../../pages/settings/SettingsPage';
import { jsonResponse, renderWithApp, signInForTest } from '../../../test/render';
import { UNSET_PAYOUTS } from '../../../test/payouts';

const SETTINGS: Settings = {
  darkMode: true,
  showBalance: true,
  showHashrate: true,
  theme: 'dark',
  language: 'en',
  notifications: true,
  emailAlerts: false,
  emailAlertsAvailable: true,
  twoFactorAuth: false,
  autoLogout: true,
  timeZone: null,
  payouts: UNSET_PAYOUTS,
  rigTokenSet: false,
};

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

beforeEach(() => signInForTest());
afterEach(() => vi.unstubAllGlobals());

describe('the email alerts switch', () => {
  it('is off and disabled with the reason on a pool that sends no email, in English and Arabic', async () => {
    serve({ 'GET /api/settings': () => jsonResponse({ ...SETTINGS, emailAlertsAvailable: false }) });
    const view = renderWithApp(<SettingsPage />, { route: '/settings?tab=notifications' });
    const email = await screen.findByRole('switch', { name: 'Email Alerts' });
    expect(email).toBeDisabled();
    expect(email).toHaveAttribute('aria-checked', 'false');
    expect(email).toHaveAccessibleDescription(
      'Not available: this pool does not send email (its operator has not set up SMTP).',
    );
    view.unmount();
    renderWithApp(<SettingsPage />, { route: '/settings?tab=notifications', lang: 'ar' });
    const ar = await screen.findByRole('switch', { name: 'تنبيهات البريد الإلكتروني' });
    expect(ar).toBeDisabled();
    expect(ar).toHaveAccessibleDescription(
      'غير متاح: هذا المجمع لا يرسل بريدًا إلكترونيًا (لم يُعِدّ المشغّل خادم SMTP).',
    );
  });

  it('can be switched on where the pool sends email', async () => {
    serve({ 'GET /api/settings': () => jsonResponse(SETTINGS) });
    renderWithApp(<SettingsPage />, { route: '/settings?tab=notifications' });
    const email = await screen.findByRole('switch', { name: 'Email Alerts' });
    expect(email).toBeEnabled();
    expect(email).toHaveAccessibleDescription('Offline-worker and payout emails.');
    fireEvent.click(email);
    expect(email).toHaveAttribute('aria-checked', 'true');
  });
});

describe('the two-factor switch', () => {
  it('shows ON as soon as the server answers that 2FA is on, before the settings are read again', async () => {
    serve({
      'GET /api/settings': () => jsonResponse(SETTINGS),
      'POST /api/auth/2fa/setup': () =>
        jsonResponse({
          secret: 'JBSWY3DPEHPK3PXP',
          otpauthUrl: 'otpauth://totp/Manjam',
          qrDataUrl: 'data:image/png;base64,AAAA',
        }),
      'POST /api/auth/2fa/enable': () => jsonResponse({ codes: ['k7m2-9qhx-3t0v-a8p0'] }),
    });
    renderWithApp(<SettingsPage />, { route: '/settings?tab=security' });
    const toggle = await screen.findByRole('switch', { name: 'Two-Factor Authentication' });
    fireEvent.click(toggle);
    await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    // From now on the settings are never answered again: the switch follows the enable answer alone.
    serve({
      'GET /api/settings': () => new Promise<Response>(() => undefined),
      'POST /api/auth/2fa/enable': () => jsonResponse({ codes: ['k7m2-9qhx-3t0v-a8p0'] }),
    });
    fireEvent.change(screen.getByLabelText('Account password'), { target: { value: 'correct horse' } });
    fireEvent.change(screen.getByLabelText('6-digit code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('Two-factor sign-in is now on.')).toBeInTheDocument();
    const after = screen.getByRole('switch', { name: 'Two-Factor Authentication' });
    expect(after).toHaveAttribute('aria-checked', 'true');
  });
});
