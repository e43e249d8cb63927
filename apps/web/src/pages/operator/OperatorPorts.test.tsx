// The operator console's Ports tab: each live Stratum port with its connections (or that this
// process does not run its listener), its own shares per second and hashrate, or its coin's with
// that said, in English and Arabic.
import type { OperatorPorts } from '@manjam/contract';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/routes';
import { AS_OF, LAZY, OPERATOR, rowWith, stubOperatorApi } from '../../../test/operator';
import { renderWithApp, signInForTest } from '../../../test/render';

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
      scope: 'port',
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
      scope: 'port',
      sharesPerSecond: 0.5,
      hashrate: 2_000_000_000,
    },
    {
      coin: 'XMR',
      algorithm: 'RandomX',
      port: 5555,
      protocol: 'v1',
      tls: false,
      connections: null,
      scope: 'coin',
      sharesPerSecond: 0.25,
      hashrate: 4_560,
    },
  ],
};

beforeEach(() => {
  localStorage.setItem('hasVisitedBefore', 'true');
  stubOperatorApi({ '/api/operator/ports': PORTS });
});
afterEach(() => vi.unstubAllGlobals());

describe('the operator console: Stratum ports', () => {
  it("shows each port's connections, shares per second and hashrate in its own unit, read at its time", async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Ports' }, LAZY));
    expect(await screen.findByRole('table', { name: 'Stratum ports' })).toBeInTheDocument();
    expect(screen.getByText(/^Read at /)).toHaveAttribute('datetime', AS_OF);

    const v1 = rowWith('3333');
    expect(v1.getByText('SHA-256')).toBeInTheDocument();
    expect(v1.getByText('V1')).toBeInTheDocument();
    expect(v1.getByText('12')).toBeInTheDocument();
    expect(v1.getByText('2.5')).toBeInTheDocument();
    expect(v1.getByText('1.23 TH/s')).toBeInTheDocument();

    expect(v1.queryByText(/all BTC ports/)).toBeNull();

    const v2 = rowWith('34254');
    expect(v2.getByText('V2 (TLS)')).toBeInTheDocument();
    expect(v2.getByText('3')).toBeInTheDocument();
    expect(v2.getByText('0.5')).toBeInTheDocument();
    expect(v2.getByText('2.00 GH/s')).toBeInTheDocument();

    const xmr = rowWith('5555');
    expect(xmr.getByText('RandomX')).toBeInTheDocument();
    expect(xmr.getByText('Not in this process')).toBeInTheDocument();
    expect(xmr.queryByText('0')).toBeNull();
    expect(xmr.getByText('0.25')).toBeInTheDocument();
    expect(xmr.getByText('4.56 kH/s')).toBeInTheDocument();
    // Figures of its coin, not of this port: said under each.
    expect(xmr.getAllByText('all XMR ports')).toHaveLength(2);
  });

  it('shows the ports in Arabic', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator', lang: 'ar' });
    fireEvent.click(await screen.findByRole('tab', { name: 'المنافذ' }, LAZY));
    expect(await screen.findByRole('table', { name: 'منافذ Stratum' })).toBeInTheDocument();
    expect(screen.getByText(/^قُرئ في /)).toHaveAttribute('datetime', AS_OF);
    expect(rowWith('5555').getByText('ليست في هذه العملية')).toBeInTheDocument();
    expect(rowWith('5555').getAllByText('كل منافذ XMR')).toHaveLength(2);
    expect(rowWith('3333').getByText('1.23 TH/s')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'الاتصالات' })).toBeInTheDocument();
  });
});
