// The operator console's Ports tab: each live Stratum port with its connections (or that this
// process does not run its listener), its coin's shares per second and hashrate, in English and Arabic.
import type { OperatorHealth, OperatorPorts } from '@manjam/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/routes';
import { jsonResponse, renderWithApp, signInForTest, TEST_USER } from '../../test/render';

const OPERATOR = { ...TEST_USER, operator: true, twoFactorEnabled: true };
const LAZY = { timeout: 8000 };
const AS_OF = '2026-11-28T10:05:42.000Z';

const HEALTH: OperatorHealth = {
  asOf: AS_OF,
  status: 'ok',
  database: { ok: true, kind: 'postgres' },
  chains: [{ coin: 'BTC', ok: true, height: 840_123, newTipsBy: 'blocknotify' }],
  openAlerts: 0,
  shareLogBacklog: 0,
  accounting: [],
};
const PORTS: OperatorPorts = {
  asOf: AS_OF,
  ports: [
    {
      coin: 'BTC',
      algorithm: 'SHA-256',
      port: 3333,
      protocol: 'v1',
      tls: false,
      connections: 12,
      sharesPerSecond: 2.5,
      hashrate: 1_234_000_000_000,
    },
    {
      coin: 'BTC',
      algorithm: 'SHA-256',
      port: 34254,
      protocol: 'v2',
      tls: true,
      connections: 3,
      sharesPerSecond: 2.5,
      hashrate: 1_234_000_000_000,
    },
    {
      coin: 'XMR',
      algorithm: 'RandomX',
      port: 5555,
      protocol: 'v1',
      tls: false,
      connections: null,
      sharesPerSecond: 0.25,
      hashrate: 4_560,
    },
  ],
};

beforeEach(() => {
  localStorage.setItem('hasVisitedBefore', 'true');
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      const path = url.replace(/\?.*$/, '');
      if (path === '/api/me') return Promise.resolve(jsonResponse(OPERATOR));
      if (path === '/api/operator/health') return Promise.resolve(jsonResponse(HEALTH));
      if (path === '/api/operator/ports') return Promise.resolve(jsonResponse(PORTS));
      return Promise.resolve(jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const rowOf = (port: string) => {
  const cell = screen.getAllByRole('cell').find((c) => c.textContent === port);
  const row = cell?.closest('tr');
  if (!row) throw new Error(`no row for port ${port}`);
  return within(row);
};

describe('the operator console: Stratum ports', () => {
  it("shows each port's connections, shares per second and hashrate in its own unit, read at its time", async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Ports' }, LAZY));
    expect(await screen.findByRole('table', { name: 'Stratum ports' })).toBeInTheDocument();
    expect(screen.getByText(/^Read at /)).toHaveAttribute('datetime', AS_OF);

    const v1 = rowOf('3333');
    expect(v1.getByText('SHA-256')).toBeInTheDocument();
    expect(v1.getByText('V1')).toBeInTheDocument();
    expect(v1.getByText('12')).toBeInTheDocument();
    expect(v1.getByText('2.5')).toBeInTheDocument();
    expect(v1.getByText('1.23 TH/s')).toBeInTheDocument();

    expect(rowOf('34254').getByText('V2 (TLS)')).toBeInTheDocument();
    expect(rowOf('34254').getByText('3')).toBeInTheDocument();

    const xmr = rowOf('5555');
    expect(xmr.getByText('RandomX')).toBeInTheDocument();
    expect(xmr.getByText('Not in this process')).toBeInTheDocument();
    expect(xmr.queryByText('0')).toBeNull();
    expect(xmr.getByText('0.25')).toBeInTheDocument();
    expect(xmr.getByText('4.56 kH/s')).toBeInTheDocument();
  });

  it('shows the ports in Arabic', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator', lang: 'ar' });
    fireEvent.click(await screen.findByRole('tab', { name: 'المنافذ' }, LAZY));
    expect(await screen.findByRole('table', { name: 'منافذ Stratum' })).toBeInTheDocument();
    expect(screen.getByText(/^قُرئ في /)).toHaveAttribute('datetime', AS_OF);
    expect(rowOf('5555').getByText('ليست في هذه العملية')).toBeInTheDocument();
    expect(rowOf('3333').getByText('1.23 TH/s')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'الاتصالات' })).toBeInTheDocument();
  });
});
