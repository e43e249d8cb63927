import type {
  OperatorActionPage,
  OperatorAlerts,
  OperatorBans,
  OperatorHealth,
  OperatorPayoutRunPage,
  RunningConfig,
  TopWorkers,
} from '@manjam/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/routes';
import { jsonResponse, renderWithApp, signInForTest, TEST_USER } from '../../../test/render';

const OPERATOR = { ...TEST_USER, operator: true, twoFactorEnabled: true };
const LAZY = { timeout: 8000 };
const TXID = 'ab'.repeat(32);

const HEALTH: OperatorHealth = {
  asOf: '2026-11-28T10:05:42.000Z',
  status: 'degraded',
  database: { ok: true, kind: 'postgres' },
  chains: [
    { coin: 'BTC', ok: true, height: 840_123, newTipsBy: 'blocknotify' },
    { coin: 'XMR', ok: false, height: null, downSince: '2026-11-28T10:00:00.000Z' },
  ],
  openAlerts: 1,
  shareLogBacklog: 12,
  accounting: [{ coin: 'BTC', creditedThrough: '2026-11-28T10:05:00.000Z', behindSeconds: 42 }],
};
const ALERTS: OperatorAlerts = {
  open: [
    {
      id: '5',
      key: 'payout-missing:XMR:9',
      kind: 'payout-missing',
      coin: 'XMR',
      message: 'XMR payout run 9: the run is held, neither sent nor failed',
      raisedAt: '2026-11-28T09:00:00.000Z',
      clearedAt: null,
      runbook: { doc: 'docs/OPERATIONS.md', anchor: 'alert-payout-missing' },
      blockId: null,
    },
  ],
  past: { items: [], page: 1, pageSize: 20, total: 0 },
};
const RUNS: OperatorPayoutRunPage = {
  items: [
    {
      id: '9',
      coin: 'XMR',
      status: 'intent',
      settleable: true,
      txid: null,
      payouts: 2,
      total: '400000000000',
      failure: null,
      error: null,
      createdAt: '2026-11-28T08:00:00.000Z',
    },
    {
      id: '8',
      coin: 'BTC',
      status: 'failed',
      settleable: false,
      txid: null,
      payouts: 1,
      total: '150000',
      failure: 'wallet-short',
      error: 'Insufficient funds',
      createdAt: '2026-11-27T08:00:00.000Z',
    },
  ],
  page: 1,
  pageSize: 20,
  total: 2,
};
const BANS: OperatorBans = {
  available: true,
  items: [{ scope: 'ip', ip: '203.0.113.7', login: null, until: '2026-11-28T11:00:00.000Z' }],
};

const ACTIONS: OperatorActionPage = {
  items: [
    {
      id: '3',
      email: 'ops@example.com',
      ip: '198.51.100.4',
      action: 'settle-payout-run',
      target: 'run 9 sent',
      at: '2026-11-28T10:10:00.000Z',
    },
  ],
  page: 1,
  pageSize: 20,
  total: 1,
};

const TOP: TopWorkers = {
  window: '10m',
  items: [
    {
      workerId: 11,
      account: 'alice',
      address: null,
      worker: 'rig1',
      coin: 'BTC',
      algorithm: 'sha256',
      realtime: 7_158_278.8,
      hour: 3_000_000,
      lastShareAt: '2026-11-28T10:09:00.000Z',
    },
    {
      workerId: 12,
      account: null,
      address: 'rltc1qexamplewallet',
      worker: 'gpu',
      coin: 'LTC',
      algorithm: 'scrypt',
      realtime: 0,
      hour: 36_408_888,
      lastShareAt: '2026-11-28T09:40:00.000Z',
    },
  ],
};
const CONFIG: RunningConfig = {
  config: { publicHost: 'pool.example', auth: { secret: '[redacted]' }, stratum: { host: '0.0.0.0' } },
};

type Call = { method: string; url: string; body: unknown };
let calls: Call[];
let refuse: { status: number; code: string; message: string } | null;

function api(url: string, init?: RequestInit): Response {
  const method = init?.method ?? 'GET';
  const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
  calls.push({ method, url, body });
  const path = url.replace(/\?.*$/, '');
  if (path === '/api/me') return jsonResponse(OPERATOR);
  if (refuse && path.startsWith('/api/operator/'))
    return jsonResponse({ error: { code: refuse.code, message: refuse.message } }, refuse.status);
  if (path === '/api/operator/health') return jsonResponse(HEALTH);
  if (path === '/api/operator/alerts') return jsonResponse(ALERTS);
  if (path === '/api/operator/alerts/5/close')
    return jsonResponse({ ...ALERTS.open[0], clearedAt: HEALTH.accounting[0]?.creditedThrough });
  if (path === '/api/operator/payout-runs') return jsonResponse(RUNS);
  if (path === '/api/operator/payout-runs/9/settle')
    return jsonResponse({ id: '9', coin: 'XMR', status: 'sent', payouts: 2, total: '400000000000' });
  if (path === '/api/operator/bans') return jsonResponse(BANS);
  if (path === '/api/operator/bans/lift') return jsonResponse({ lifted: 1 });
  if (path === '/api/operator/actions') return jsonResponse(ACTIONS);
  if (path === '/api/operator/operators') {
    const request = body as { email: string; action: string };
    return jsonResponse({ email: request.email, operator: request.action === 'grant' });
  }
  if (path === '/api/operator/top-workers')
    return jsonResponse({ ...TOP, window: url.includes('window=1h') ? '1h' : '10m' });
  if (path === '/api/operator/config') return jsonResponse(CONFIG);
  return jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404);
}

beforeEach(() => {
  calls = [];
  refuse = null;
  localStorage.setItem('hasVisitedBefore', 'true');
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => Promise.resolve(api(url, init))),
  );
});
afterEach(() => vi.unstubAllGlobals());

const posted = (url: string) => calls.filter((c) => c.method === 'POST' && c.url === url);

describe('the operator console page', () => {
  it('shows a non-operator the 404 page at /operator and no Operator link', async () => {
    signInForTest({ ...TEST_USER, operator: false });
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        Promise.resolve(url.endsWith('/api/me') ? jsonResponse({ ...TEST_USER, operator: false }) : api(url)),
      ),
    );
    renderWithApp(<AppRoutes />, { route: '/operator' });
    expect(await screen.findByRole('heading', { name: 'Page Not Found' }, LAZY)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/404');
    expect(screen.queryByRole('link', { name: 'Operator' })).toBeNull();
    expect(calls.some((c) => c.url.startsWith('/api/operator/'))).toBe(false);
  });

  it('shows an operator the nav link and the health of the pool, in English', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    expect(await screen.findByRole('heading', { name: 'Operator console' }, LAZY)).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Operator' }).length).toBeGreaterThan(0);
    expect(await screen.findByText('Degraded')).toBeInTheDocument();
    expect(screen.getByText('840,123')).toBeInTheDocument();
    expect(screen.getByText('blocknotify')).toBeInTheDocument();
    expect(screen.getByText(/No node since/)).toBeInTheDocument();
    expect(screen.getByText('12')).toBeInTheDocument();
    expect(screen.getByText('42 s')).toBeInTheDocument();
    expect(screen.getByText(/^Read at /)).toHaveAttribute('datetime', HEALTH.asOf);
  });

  it('closes an alert after the confirm step, showing what to do first', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Alerts' }, LAZY));
    expect(await screen.findByText(/neither sent nor failed/)).toBeInTheDocument();
    expect(screen.getByText(/settle a held run here as sent/)).toBeInTheDocument();
    expect(screen.getByText('docs/OPERATIONS.md#alert-payout-missing')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close alert' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close this alert?' });
    expect(posted('/api/operator/alerts/5/close')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Alert closed.')).toBeInTheDocument();
    expect(posted('/api/operator/alerts/5/close')).toHaveLength(1);
  });

  it("credits a returned block's payees back after the confirm step, from its alert", async () => {
    const returned: OperatorAlerts = {
      open: [
        {
          id: '6',
          key: 'block-returned:BTC:7',
          kind: 'block-returned',
          coin: 'BTC',
          message: 'BTC block 812 (id 7) is back on the main chain after its credits were reversed',
          raisedAt: '2026-11-28T09:00:00.000Z',
          clearedAt: null,
          runbook: { doc: 'docs/OPERATIONS.md', anchor: 'alert-block-returned' },
          blockId: '7',
        },
      ],
      past: { items: [], page: 1, pageSize: 20, total: 0 },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        if (url.startsWith('/api/operator/alerts?')) return Promise.resolve(jsonResponse(returned));
        if (url === '/api/operator/blocks/7/recredit') {
          calls.push({ method: init?.method ?? 'GET', url, body: undefined });
          const done = {
            id: '7',
            coin: 'BTC',
            height: 812,
            hash: 'ab'.repeat(32),
            payees: 2,
            total: '312500000',
          };
          return Promise.resolve(jsonResponse(done));
        }
        return Promise.resolve(api(url, init));
      }),
    );
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Alerts' }, LAZY));
    expect(await screen.findByText(/credit its payees back \(Credit payees\)/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Credit payees' }));
    const dialog = await screen.findByRole('dialog', { name: "Credit block 7's payees back?" });
    expect(within(dialog).getByText(/exactly what was reversed/)).toBeInTheDocument();
    expect(posted('/api/operator/blocks/7/recredit')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(/^Block 7 credited back: 3\.125\b/)).toBeInTheDocument();
    expect(posted('/api/operator/blocks/7/recredit')).toHaveLength(1);
  });

  it('settles a held run as sent with a checked txid, and shows why a run failed', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Payout runs' }, LAZY));
    expect(await screen.findByText('wallet-short: Insufficient funds')).toBeInTheDocument();
    // Only the held run offers settling.
    expect(screen.getAllByRole('button', { name: 'Settle as sent' })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Settle as sent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Settle run 9 as sent' });
    fireEvent.change(within(dialog).getByLabelText('Transaction id'), { target: { value: 'xyz' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText(/64 hexadecimal digits/)).toBeInTheDocument();
    expect(posted('/api/operator/payout-runs/9/settle')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('Transaction id'), {
      target: { value: TXID.toUpperCase() },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Run 9 settled.')).toBeInTheDocument();
    expect(posted('/api/operator/payout-runs/9/settle')[0]?.body).toEqual({ outcome: 'sent', txid: TXID });
  });

  it('shows the server refusal of a settle inside the dialog', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Payout runs' }, LAZY));
    fireEvent.click(await screen.findByRole('button', { name: 'Settle as failed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Settle run 9 as failed' });
    refuse = {
      status: 409,
      code: 'payout-run-not-held',
      message: 'Only a held payout run (intent) can be settled by hand; this one has moved on',
    };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('can be settled by hand');
    expect(posted('/api/operator/payout-runs/9/settle')[0]?.body).toEqual({ outcome: 'failed' });
  });

  it('lifts a ban after the confirm step', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Bans' }, LAZY));
    expect(await screen.findByText('203.0.113.7')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Lift' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lift the bans of 203.0.113.7?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Bans of 203.0.113.7 lifted.')).toBeInTheDocument();
    expect(posted('/api/operator/bans/lift')[0]?.body).toEqual({ ip: '203.0.113.7' });
  });

  it('grants and revokes the operator role by email after the confirm step', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Operators' }, LAZY));
    const email = await screen.findByLabelText('Account email');
    expect(screen.getByRole('button', { name: 'Grant operator' })).toBeDisabled();
    fireEvent.change(email, { target: { value: ' night-shift@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Grant operator' }));
    const grant = await screen.findByRole('dialog', { name: 'Make night-shift@example.com an operator?' });
    fireEvent.click(within(grant).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('night-shift@example.com is now an operator.')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Account email'), {
      target: { value: 'night-shift@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Revoke operator' }));
    const revoke = await screen.findByRole('dialog', {
      name: 'Take the console from night-shift@example.com?',
    });
    fireEvent.click(within(revoke).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('night-shift@example.com is no longer an operator.')).toBeInTheDocument();
    expect(posted('/api/operator/operators').map((c) => c.body)).toEqual([
      { email: 'night-shift@example.com', action: 'grant' },
      { email: 'night-shift@example.com', action: 'revoke' },
    ]);
  });

  it('shows why no account could be made an operator, inside the dialog', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Operators' }, LAZY));
    fireEvent.change(await screen.findByLabelText('Account email'), {
      target: { value: 'nobody@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Grant operator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make nobody@example.com an operator?' });
    refuse = { status: 404, code: 'account-not-found', message: 'No account has this email' };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('No account has this email');
  });

  it('shows the audit log: who did what, from where', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Audit log' }, LAZY));
    expect(await screen.findByText('Settled a payout run')).toBeInTheDocument();
    expect(screen.getByText('ops@example.com')).toBeInTheDocument();
    expect(screen.getByText('198.51.100.4')).toBeInTheDocument();
    expect(screen.getByText('run 9 sent')).toBeInTheDocument();
  });

  it('lists the top workers of all accounts and ranks them by the hour on request', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Top workers' }, LAZY));
    expect(await screen.findByText('alice')).toBeInTheDocument();
    expect(screen.getByText('rltc1qexamplewallet')).toBeInTheDocument();
    expect(screen.getByText('No account (wallet)')).toBeInTheDocument();
    expect(screen.getByText('7.16 MH/s')).toBeInTheDocument();
    expect(screen.getByText('36.41 MH/s')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Rank by'), { target: { value: '1h' } });
    await waitFor(() => expect(calls.some((c) => c.url.includes('top-workers?window=1h'))).toBe(true));
  });

  it('shows the running configuration read-only, as the server redacted it', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Config' }, LAZY));
    const tree = await screen.findByLabelText('Running configuration');
    expect(tree).toHaveTextContent('"publicHost": "pool.example"');
    expect(tree).toHaveTextContent('"secret": "[redacted]"');
    expect(tree).toHaveAttribute('dir', 'ltr');
  });

  it('shows the console in Arabic: title, sections, the runbook advice and the settle dialog', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator', lang: 'ar' });
    expect(await screen.findByRole('heading', { name: 'لوحة المشغّل' }, LAZY)).toBeInTheDocument();
    expect(await screen.findByText('متراجع')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'المشغّل' }).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('tab', { name: 'التنبيهات' }));
    expect(await screen.findByText(/سوِّ الدفعة المعلّقة هنا/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'دفعات السداد' }));
    fireEvent.click(await screen.findByRole('button', { name: 'تسوية كمُرسلة' }));
    const dialog = await screen.findByRole('dialog', { name: 'تسوية الدفعة 9 كمُرسلة' });
    expect(within(dialog).getByLabelText('معرّف المعاملة')).toHaveAttribute('dir', 'ltr');
    expect(within(dialog).getByRole('button', { name: 'تأكيد' })).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'إلغاء' }));
    fireEvent.click(screen.getByRole('tab', { name: 'أنشط العمّال' }));
    expect(await screen.findByText('بلا حساب (محفظة)')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'الإعدادات' }));
    expect(await screen.findByText(/للقراءة فقط/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'سجل التدقيق' }));
    expect(await screen.findByText('سوّى دفعة سداد')).toBeInTheDocument();
  });

  it('shows why the server refuses an operator who did not sign in with a 2FA code', async () => {
    signInForTest(OPERATOR);
    refuse = {
      status: 403,
      code: 'totp-required',
      message:
        'The operator console needs a sign-in with your password and two-factor code: turn on 2FA, then sign in again',
    };
    renderWithApp(<AppRoutes />, { route: '/operator' });
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent('two-factor code');
    expect(screen.queryByRole('tab', { name: 'Health' })).toBeNull();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/operator'));
  });
});
