import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WatchDashboard, WatchPayoutPage, WatchView, WatchWorkers } from '../../lib/api-types';
import { STORAGE_KEYS } from '../../lib/storage';
import { jsonResponse, renderWithApp } from '../../../test/render';
import WatchPage from './WatchPage';

const TOKEN = 'Zq3'.repeat(14) + 'x';
const VIEW: WatchView = {
  label: 'Brother',
  coins: ['LTC'],
  pages: ['workers', 'payouts'],
  expiresAt: null,
};
const WORKERS: WatchWorkers = {
  workers: [
    {
      name: 'rig-scrypt',
      coin: 'LTC',
      status: 'online',
      hashrate: 2.5e6,
      hashrate1h: 2.4e6,
      hashrate24h: 2.3e6,
      rejectRate: 0,
      sparkline: [],
      change: '0.0%',
      shares: 100,
      rejects: 0,
      lastSeen: new Date().toISOString(),
      type: 'cpu',
      algorithm: 'scrypt',
    },
  ],
};
const PAYOUTS: WatchPayoutPage = {
  items: [
    {
      date: '2026-11-20T08:00:00.000Z',
      amount: '90000',
      coin: 'LTC',
      txId: 'cccccc…cccc',
      status: 'completed',
      address: 'rltc1q…3xs3',
      confirmations: 6,
      failure: null,
    },
  ],
  page: 1,
  pageSize: 10,
  total: 1,
};
const DASHBOARD: WatchDashboard = { hashrates: [], coins: [] };

function serve(routes: Record<string, () => Response>) {
  const fetchMock = vi.fn((url: string, _init?: RequestInit) => {
    const handler = routes[url.split('?')[0] ?? url];
    return Promise.resolve(
      handler ? handler() : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const base = `/api/watch/${TOKEN}`;

beforeEach(() => localStorage.removeItem(STORAGE_KEYS.token));
afterEach(() => vi.unstubAllGlobals());

describe('the watcher page', () => {
  it('shows only the pages the link chose, signed out, and never asks for the dashboard', async () => {
    const fetchMock = serve({
      [base]: () => jsonResponse(VIEW),
      [`${base}/workers`]: () => jsonResponse(WORKERS),
      [`${base}/payouts`]: () => jsonResponse(PAYOUTS),
      [`${base}/dashboard`]: () => jsonResponse(DASHBOARD),
    });
    renderWithApp(<WatchPage />, { route: `/watch/${TOKEN}`, path: '/watch/:token' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Watching: Brother' })).toBeInTheDocument();
    const workers = await screen.findByRole('region', { name: 'Workers' });
    expect(await within(workers).findByText('rig-scrypt')).toBeInTheDocument();
    const payouts = screen.getByRole('region', { name: 'Payouts' });
    expect(await within(payouts).findAllByText(/0\.0009/)).not.toHaveLength(0);
    expect(within(payouts).getByText('cccccc…cccc')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Dashboard' })).not.toBeInTheDocument();
    const asked = fetchMock.mock.calls.map(([url]) => url.split('?')[0]);
    expect(asked).not.toContain(`${base}/dashboard`);
    for (const [, init] of fetchMock.mock.calls)
      expect(new Headers(init?.headers).get('authorization')).toBeNull();
  });

  it('says the link is gone when it was revoked or has expired (404)', async () => {
    serve({});
    renderWithApp(<WatchPage />, { route: `/watch/${TOKEN}`, path: '/watch/:token' });
    expect(await screen.findByRole('heading', { name: 'Watcher link not found' })).toBeInTheDocument();
    expect(screen.getByText(/expired or was revoked/)).toBeInTheDocument();
  });

  it('reads in Arabic, right to left, with the label isolated', async () => {
    serve({
      [base]: () => jsonResponse(VIEW),
      [`${base}/workers`]: () => jsonResponse(WORKERS),
      [`${base}/payouts`]: () => jsonResponse(PAYOUTS),
    });
    renderWithApp(<WatchPage />, { route: `/watch/${TOKEN}`, path: '/watch/:token', lang: 'ar' });
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading).toHaveTextContent('متابعة: Brother');
    expect(within(heading).getByText('Brother').tagName).toBe('BDI');
    expect(await screen.findByRole('region', { name: 'العمّال' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'المدفوعات' })).toBeInTheDocument();
    expect(screen.getByText('صفحة للقراءة فقط شاركها المُعدِّن.')).toBeInTheDocument();
  });

  it('says in Arabic that a revoked link is gone', async () => {
    serve({});
    renderWithApp(<WatchPage />, { route: `/watch/${TOKEN}`, path: '/watch/:token', lang: 'ar' });
    expect(await screen.findByRole('heading', { name: 'رابط المتابعة غير موجود' })).toBeInTheDocument();
  });
});
