import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountAlerts as AccountAlertsData, WorkerAlerts } from '@manjam/contract';
import { jsonResponse, renderWithApp, signInForTest } from '../../../test/render';
import { RecoveryCodesPanel } from '../settings/RecoveryCodes';
import { AccountAlerts } from './AccountAlerts';
import { WorkerAlertsForm } from './WorkerAlertsForm';

const BOUNDS = {
  offlineMinutesMin: 2,
  offlineMinutesMax: 1440,
  dropPercentMin: 10,
  dropPercentMax: 95,
  poolOfflineMinutes: 10,
  poolDropPercent: 50,
};
const ACCOUNT: AccountAlertsData = {
  offlineMinutes: null,
  dropPercent: 40,
  bounds: BOUNDS,
  webhook: {
    url: 'https://discord.com/api/webhooks/1/abc',
    lastDeliveredAt: '2026-11-25T10:00:00Z',
    lastError: 'HTTP 500',
    lastErrorAt: '2026-11-25T11:00:00Z',
  },
};
const WORKER: WorkerAlerts = {
  off: false,
  offlineMinutes: 5,
  dropPercent: null,
  effectiveOfflineMinutes: 5,
  effectiveDropPercent: 40,
  bounds: BOUNDS,
};

type Handler = (init: RequestInit) => Response;
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
const bodyOf = (fetchMock: ReturnType<typeof serve>, method: string, url: string): unknown =>
  JSON.parse(
    fetchMock.mock.calls.find(([u, init]) => u === url && init?.method === method)?.[1]?.body as string,
  );

beforeEach(() => signInForTest());
afterEach(() => vi.unstubAllGlobals());

describe('alert thresholds and webhook in Settings', () => {
  it('shows the pool defaults as placeholders, checks the range, and saves empty fields as the pool default', async () => {
    const fetchMock = serve({
      'GET /api/settings/alerts': () => jsonResponse(ACCOUNT),
      'PUT /api/settings/alerts': (init) => jsonResponse({ ...ACCOUNT, ...JSON.parse(init.body as string) }),
    });
    renderWithApp(<AccountAlerts />);
    const offline = await screen.findByLabelText('Offline after (minutes without an accepted share)');
    expect(offline).toHaveValue('');
    expect(offline).toHaveAttribute('placeholder', '10');
    expect(offline).toHaveAccessibleDescription('From 2 to 1440');
    const drop = screen.getByLabelText('Hashrate drop alert (below this % of the 24 h average)');
    expect(drop).toHaveValue('40');
    fireEvent.change(offline, { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save thresholds' }));
    expect(screen.getByText('Choose a whole number within the range shown')).toBeInTheDocument();
    fireEvent.change(offline, { target: { value: '15' } });
    fireEvent.change(drop, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save thresholds' }));
    expect(await screen.findByText('Alert thresholds saved.')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PUT', '/api/settings/alerts')).toEqual({
      offlineMinutes: 15,
      dropPercent: null,
    });
  });

  it('shows the webhook’s last failure to its owner and sends a test', async () => {
    const fetchMock = serve({
      'GET /api/settings/alerts': () => jsonResponse(ACCOUNT),
      'POST /api/settings/webhook/test': () =>
        jsonResponse({
          delivered: true,
          error: null,
          webhook: { ...ACCOUNT.webhook, lastDeliveredAt: '2026-11-25T12:00:00Z' },
        }),
    });
    renderWithApp(<AccountAlerts />);
    expect(await screen.findByLabelText('Webhook URL')).toHaveValue('https://discord.com/api/webhooks/1/abc');
    expect(screen.getByRole('alert')).toHaveTextContent(/Last failure .*HTTP 500/);
    fireEvent.click(screen.getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText('The test message was delivered.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/settings/webhook/test')).toBe(true);
  });

  it('shows the server’s refusal of a private webhook address under the field, in Arabic', async () => {
    serve({
      'GET /api/settings/alerts': () =>
        jsonResponse({ ...ACCOUNT, webhook: { ...ACCOUNT.webhook, url: null } }),
      'PUT /api/settings/webhook': () =>
        jsonResponse(
          {
            error: {
              code: 'validation-failed',
              message: 'بعض الحقول غير صالحة',
              fields: { url: 'لا يمكن استخدام رابط الويب هوك هذا' },
            },
          },
          400,
        ),
    });
    renderWithApp(<AccountAlerts />, { lang: 'ar' });
    const url = await screen.findByLabelText('رابط الويب هوك');
    expect(url).toHaveAttribute('dir', 'ltr');
    expect(screen.queryByRole('button', { name: 'إرسال رسالة تجريبية' })).not.toBeInTheDocument();
    fireEvent.change(url, { target: { value: 'https://10.0.0.1/hook' } });
    fireEvent.click(screen.getByRole('button', { name: 'حفظ الويب هوك' }));
    await waitFor(() => expect(url).toHaveAccessibleDescription('لا يمكن استخدام رابط الويب هوك هذا'));
    expect(screen.getByText('حدود التنبيهات')).toBeInTheDocument();
  });
});

describe('a worker’s own alerts', () => {
  it('says what is in force in Arabic and turns the worker’s alerts off', async () => {
    const fetchMock = serve({
      'GET /api/workers/3/alerts': () => jsonResponse(WORKER),
      'PUT /api/workers/3/alerts': () => jsonResponse({ ...WORKER, off: true }),
    });
    renderWithApp(<WorkerAlertsForm workerId={3} />, { lang: 'ar' });
    const toggle = await screen.findByRole('switch', { name: 'تنبيهات الانقطاع وانخفاض معدل التجزئة' });
    expect(screen.getByText(/غير متصل بعد 5 دقيقة، وانخفاض معدل التجزئة تحت 40٪/)).toBeInTheDocument();
    fireEvent.click(toggle);
    expect(await screen.findByText('متوقفة: لا يُصدر هذا العامل أي تنبيه.')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PUT', '/api/workers/3/alerts')).toEqual({
      offlineMinutes: 5,
      dropPercent: null,
      off: true,
    });
  });

  it('saves a worker’s own offline minutes in English', async () => {
    const fetchMock = serve({
      'GET /api/workers/3/alerts': () => jsonResponse(WORKER),
      'PUT /api/workers/3/alerts': () => jsonResponse({ ...WORKER, offlineMinutes: 3 }),
    });
    renderWithApp(<WorkerAlertsForm workerId={3} />);
    fireEvent.change(await screen.findByLabelText('Offline after (minutes without an accepted share)'), {
      target: { value: '3' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save thresholds' }));
    await waitFor(() =>
      expect(bodyOf(fetchMock, 'PUT', '/api/workers/3/alerts')).toEqual({
        offlineMinutes: 3,
        dropPercent: null,
        off: false,
      }),
    );
  });
});

describe('recovery codes in Settings', () => {
  it('counts the codes left with Arabic plurals and regenerates them with the password and a code', async () => {
    const fetchMock = serve({
      'GET /api/auth/2fa/recovery-codes': () => jsonResponse({ left: 2 }),
      'POST /api/auth/2fa/recovery-codes': () =>
        jsonResponse({ codes: Array.from({ length: 10 }, (_, i) => `aaaa-bbbb-cccc-ddd${i}`) }),
    });
    renderWithApp(<RecoveryCodesPanel />, { lang: 'ar' });
    expect(await screen.findByText('بقي رمزا استرداد.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'رموز استرداد جديدة' }));
    fireEvent.change(screen.getByLabelText('كلمة مرور الحساب'), { target: { value: 'correct horse' } });
    fireEvent.change(screen.getByLabelText('الرمز المكوّن من 6 أرقام'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'رموز استرداد جديدة' }));
    expect(await screen.findByText('aaaa-bbbb-cccc-ddd9')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST', '/api/auth/2fa/recovery-codes')).toEqual({
      password: 'correct horse',
      code: '123456',
    });
  });

  it('says how many codes are left in English', async () => {
    serve({ 'GET /api/auth/2fa/recovery-codes': () => jsonResponse({ left: 9 }) });
    renderWithApp(<RecoveryCodesPanel />);
    expect(await screen.findByText('9 recovery codes left.')).toBeInTheDocument();
  });
});
