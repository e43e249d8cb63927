import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  PAGE_TEST_TIMEOUT,
  json,
  mockFetch,
  renderScreen,
  requestedUrls,
  signInForTest,
} from '../../../test/dashboard';
import RevenuePage from './RevenuePage';

function reward(id: number) {
  return {
    id,
    date: '2026-11-20',
    settledAt: '2026-11-20T00:00:00Z',
    avgHashrate: 95e12,
    amount: '61000',
    coin: 'BTC',
    difficulty: 36.76e12,
    description: 'pps-plus',
  };
}

describe('Revenue screen', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('shows rewards with PPS+ and pages through the server total', async () => {
    signInForTest();
    const fetchMock = mockFetch((url) => {
      if (url.pathname === '/api/rewards') {
        const page = Number(url.searchParams.get('page'));
        return json({ items: [reward(page * 100)], page, pageSize: 10, total: 25 });
      }
      return undefined;
    });
    renderScreen(<RevenuePage />);
    expect(await screen.findByText('With PPS+')).toBeInTheDocument();
    expect(screen.getByText('36.76 T')).toBeInTheDocument();
    expect(screen.getByText('Nov 20, 2026, 03:00')).toBeInTheDocument();
    expect(screen.getByText('1–10 of 25')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 3' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Page 4' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('21–25 of 25')).toBeInTheDocument();
    expect(requestedUrls(fetchMock).includes('/api/rewards?page=3&pageSize=10')).toBe(true);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('shows payouts with shortened ids, Pending... and coloured status badges', async () => {
    signInForTest();
    mockFetch((url) => {
      if (url.pathname === '/api/rewards') return json({ items: [], page: 1, pageSize: 10, total: 0 });
      if (url.pathname === '/api/payouts')
        return json({
          items: [
            {
              id: 1,
              date: '2026-11-20T03:00:00Z',
              amount: '150000000',
              coin: 'BTC',
              txId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9',
              status: 'completed',
              address: 'bc1q',
              confirmations: 6,
            },
            {
              id: 2,
              date: '2026-11-21T03:00:00Z',
              amount: '2500000',
              coin: 'LTC',
              txId: null,
              status: 'pending',
              address: 'ltc1q',
              confirmations: 0,
            },
          ],
          page: 1,
          pageSize: 10,
          total: 2,
        });
      return undefined;
    });
    renderScreen(<RevenuePage />);
    expect(
      await screen.findByText('No rewards yet. Rewards appear after the first daily settlement.'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Payouts' }));
    expect(await screen.findByText('a1b2c3...d7e8f9')).toBeInTheDocument();
    expect(screen.getByText('Pending...')).toBeInTheDocument();
    expect(screen.getByText('Completed')).toHaveClass('badge--success');
    expect(screen.getByText('Pending')).toHaveClass('badge--warning');
    expect(screen.getByText('1.50 BTC')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('1–2 of 2')).toBeInTheDocument());
  });

  it("shows today's accrued credits beside the balance and does not say No rewards yet while there are some", async () => {
    signInForTest();
    mockFetch((url) => {
      if (url.pathname === '/api/rewards') return json({ items: [], page: 1, pageSize: 10, total: 0 });
      if (url.pathname === '/api/revenue/summary')
        return json({
          coins: [
            {
              coin: 'BTC',
              balance: '69900000000',
              accrued: '69900000000',
              accruedSince: '2026-11-22T00:00:00.000Z',
              immature: '250000',
              immatureBlocks: 2,
            },
            {
              coin: 'LTC',
              balance: '0',
              accrued: '0',
              accruedSince: '2026-11-22T00:00:00.000Z',
              immature: '0',
              immatureBlocks: 0,
            },
          ],
        });
      return undefined;
    });
    renderScreen(<RevenuePage />);
    const card = await screen.findByRole('region', { name: 'Unpaid Balance (BTC)' });
    expect(screen.queryByRole('region', { name: 'Unpaid Balance (LTC)' })).not.toBeInTheDocument();
    expect(within(card).getByText('Today so far (estimated)')).toBeInTheDocument();
    expect(within(card).getAllByText('699.00 BTC')).toHaveLength(2);
    expect(within(card).getByText('0.0025 BTC')).toBeInTheDocument();
    expect(within(card).getByText(/2 blocks found, not yet mature/)).toBeInTheDocument();
    expect(
      await screen.findByText(
        /^No settled rewards yet\. Today's credits \(above, estimated\) become a reward row/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/^No rewards yet/)).not.toBeInTheDocument();
  });
});
