import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../lib/api-types';
import { jsonResponse, renderWithApp, signInForTest } from '../../../test/render';
import SettingsPage from './SettingsPage';
import { formatDateTime, setTimeZone } from '../../lib/format';
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

describe('settings', () => {
  it('loads the settings, and says saved only after the server confirmed the change', async () => {
    let confirm: (r: Response) => void = () => undefined;
    const fetchMock = serve({
      'GET /api/settings': () => jsonResponse(SETTINGS),
      'PUT /api/settings': () =>
        new Promise<Response>((resolve) => {
          confirm = resolve;
        }),
    });
    renderWithApp(<SettingsPage />, { route: '/settings' });
    const showBalance = await screen.findByRole('switch', { name: 'Show Balance' });
    expect(showBalance).toHaveAttribute('aria-checked', 'true');
    fireEvent.click(showBalance);
    expect(showBalance).toHaveAttribute('aria-checked', 'false');
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(screen.queryByText('Settings saved successfully!')).not.toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(put?.[1]?.body as string)).toMatchObject({
      showBalance: false,
      darkMode: true,
      theme: 'dark',
    });
    confirm(jsonResponse({ ...SETTINGS, showBalance: false }));
    expect(await screen.findByText('Settings saved successfully!')).toBeInTheDocument();
  });

  it('shows the server error instead of a success message when saving fails', async () => {
    serve({
      'GET /api/settings': () => jsonResponse(SETTINGS),
      'PUT /api/settings': () =>
        jsonResponse({ error: { code: 'validation-failed', message: 'Some fields are not valid' } }, 400),
    });
    renderWithApp(<SettingsPage />, { route: '/settings' });
    fireEvent.click(await screen.findByRole('switch', { name: 'Dark Mode' }));
    expect(screen.getByRole('combobox', { name: 'Theme' })).toHaveValue('light');
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Some fields are not valid')).toBeInTheDocument();
    expect(screen.queryByText('Settings saved successfully!')).not.toBeInTheDocument();
  });

  it('moves between the seven side tabs with the keyboard', async () => {
    serve({ 'GET /api/settings': () => jsonResponse(SETTINGS) });
    renderWithApp(<SettingsPage />, { route: '/settings' });
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Appearance',
      'Language',
      'Notifications',
      'Security',
      'Monitoring',
      'Account',
      'Wallet',
    ]);
    fireEvent.keyDown(tabs[0] as HTMLElement, { key: 'ArrowDown' });
    expect(screen.getByRole('tab', { name: 'Language' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('combobox', { name: 'Language' })).toHaveValue('en');
  });

  it('saves the time zone the miner chooses and shows times in it', async () => {
    const fetchMock = serve({
      'GET /api/settings': () => jsonResponse(SETTINGS),
      'PUT /api/settings': () => jsonResponse({ ...SETTINGS, timeZone: 'Asia/Riyadh' }),
    });
    renderWithApp(<SettingsPage />, { route: '/settings?tab=language' });
    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveValue('');
    expect(screen.getByRole('option', { name: /^This browser's time zone/ })).toBeInTheDocument();
    fireEvent.change(zone, { target: { value: 'Asia/Riyadh' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Settings saved successfully!')).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(put?.[1]?.body as string)).toMatchObject({ timeZone: 'Asia/Riyadh' });
    expect(formatDateTime('2026-11-27T21:30:00Z', 'en')).toBe('Nov 28, 2026, 12:30 AM');
    setTimeZone(null);
  });

  it('enrols two-factor sign-in with the QR code from the server, the password and a 6-digit code', async () => {
    const fetchMock = serve({
      'GET /api/settings': () => jsonResponse(SETTINGS),
      'POST /api/auth/2fa/setup': () =>
        jsonResponse({
          secret: 'JBSWY3DPEHPK3PXP',
          otpauthUrl: 'otpauth://totp/Manjam',
          qrDataUrl: 'data:image/png;base64,AAAA',
        }),
      'POST /api/auth/2fa/enable': () =>
        jsonResponse({ codes: Array.from({ length: 10 }, (_, i) => `k7m2-9qhx-3t0v-a8p${i}`) }),
    });
    renderWithApp(<SettingsPage />, { route: '/settings' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Security' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Two-Factor Authentication' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute(
      'src',
      'data:image/png;base64,AAAA',
    );
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('6-digit code'), { target: { value: '12a' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(screen.getByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument();
    expect(screen.getByLabelText('Account password')).toHaveAccessibleDescription('Password is required');
    fireEvent.change(screen.getByLabelText('Account password'), { target: { value: 'correct horse' } });
    fireEvent.change(screen.getByLabelText('6-digit code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('Two-factor sign-in is now on.')).toBeInTheDocument();
    // The ten recovery codes are shown once, left to right.
    const codes = screen.getByRole('region', { name: 'Recovery codes' });
    expect(codes.querySelectorAll('li')).toHaveLength(10);
    expect(screen.getByText('k7m2-9qhx-3t0v-a8p0')).toHaveAttribute('dir', 'ltr');
    const enable = fetchMock.mock.calls.find(([url]) => url === '/api/auth/2fa/enable');
    expect(JSON.parse(enable?.[1]?.body as string)).toEqual({ password: 'correct horse', code: '123456' });
  });

  it('asks for the two-factor code as well as the password to change the email while 2FA is on', async () => {
    const fetchMock = serve({
      'GET /api/settings': () => jsonResponse({ ...SETTINGS, twoFactorAuth: true }),
      'POST /api/auth/email': () => jsonResponse({ next: 'done' }, 202),
    });
    renderWithApp(<SettingsPage />, { route: '/settings' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Account' }));
    const form = screen.getByRole('form', { name: 'Update Email' });
    fireEvent.change(screen.getByLabelText('New email address'), { target: { value: 'new@example.com' } });
    fireEvent.change(screen.getByLabelText('Password (to confirm it is you)'), {
      target: { value: 'correct horse' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Update Email' }));
    const codes = screen.getAllByLabelText('Two-factor code');
    expect(codes).toHaveLength(2);
    const code = codes.find((input) => form.contains(input)) as HTMLElement;
    expect(code).toHaveAccessibleDescription('Enter the 6-digit code from your authenticator app');
    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(await screen.findByText('Your email address has been updated.')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([url]) => url === '/api/auth/email');
    expect(JSON.parse(post?.[1]?.body as string)).toEqual({
      newEmail: 'new@example.com',
      password: 'correct horse',
      totp: '654321',
    });
  });

  it('says a link went to the new address when the pool mails one, and does not claim the email changed', async () => {
    serve({
      'GET /api/settings': () => jsonResponse(SETTINGS),
      'POST /api/auth/email': () => jsonResponse({ next: 'confirm-email' }, 202),
    });
    renderWithApp(<SettingsPage />, { route: '/settings' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Account' }));
    fireEvent.change(screen.getByLabelText('New email address'), { target: { value: 'new@example.com' } });
    fireEvent.change(screen.getByLabelText('Password (to confirm it is you)'), {
      target: { value: 'correct horse' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(
      await screen.findByText(
        'We sent a confirmation link to new@example.com. Your sign-in email changes when you open it.',
      ),
    ).toHaveAttribute('role', 'status');
    expect(screen.queryByText('Your email address has been updated.')).toBeNull();
  });

  it('posts Change Password and reports the server field error', async () => {
    serve({
      'GET /api/settings': () => jsonResponse(SETTINGS),
      'POST /api/auth/password': () =>
        jsonResponse(
          {
            error: {
              code: 'wrong-password',
              message: 'The current password is not correct',
              fields: { currentPassword: 'The current password is not correct' },
            },
          },
          400,
        ),
    });
    renderWithApp(<SettingsPage />, { route: '/settings' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Account' }));
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'old-password' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'new-password-1' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'new-password-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription(
        'The current password is not correct',
      ),
    );
  });
});
