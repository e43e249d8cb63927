import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PAGE_TEST_TIMEOUT, json, mockFetch, renderScreen, signInForTest } from '../../../test/dashboard';
import RevenuePage from './RevenuePage';

describe('Revenue screen for a Monero miner', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('shows XMR rewards, balance and payouts to the last of 12 decimals, RandomX in H/s, and filters by XMR', async () => {
    signInForTest();
    mockFetch((url) => {
      if (url.pathname === '/api/rewards')
        return json({
          items: [
            {
              id: 7,
              date: '2026-11-20',
              settledAt: '2026-11-20T00:00:00Z',
              avgHashrate: 1450,
              amount: '1234567890123',
              coin: 'XMR',
              difficulty: 360e9,
              description: 'pps-plus',
            },
          ],
          page: 1,
          pageSize: 10,
          total: 1,
        });
      if (url.pathname === '/api/revenue/summary')
        return json({
          coins: [
            {
              coin: 'XMR',
              balance: '600000000001',
              accrued: '1',
              accruedSince: '2026-11-22T00:00:00.000Z',
              immature: '0',
              immatureBlocks: 0,
            },
          ],
        });
      if (url.pathname === '/api/payouts')
        return json({
          items: [
            {
              id: 3,
              date: '2026-11-21T03:00:00Z',
              amount: '100000000000',
              coin: 'XMR',
              txId: 'f'.repeat(64),
              status: 'completed',
              address: `8${'B'.repeat(94)}`,
              confirmations: 10,
            },
          ],
          page: 1,
          pageSize: 10,
          total: 1,
        });
      return undefined;
    });
    renderScreen(<RevenuePage />);
    expect(await screen.findByText('1.234567890123 XMR')).toBeInTheDocument();
    expect(screen.getByText('1.45 kH/s')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Unpaid Balance (XMR)' })).toHaveTextContent(
      '0.600000000001 XMR',
    );
    fireEvent.click(screen.getByRole('tab', { name: 'Payouts' }));
    expect(await screen.findByText('0.10 XMR')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByRole('option', { name: 'XMR' })).toBeInTheDocument();
  });
});
