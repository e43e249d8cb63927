// The operator console's Wallets tab: each coin's pool wallet as accounting last read it, against
// what the pool owes and what the next payout run pays, in English and Arabic.
import type { OperatorWallets } from '@manjam/contract';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/routes';
import { AS_OF, LAZY, OPERATOR, rowWith, stubOperatorApi } from '../../../test/operator';
import { renderWithApp, signInForTest } from '../../../test/render';

const WALLETS: OperatorWallets = {
  asOf: AS_OF,
  wallets: [
    {
      coin: 'BTC',
      balance: '5000000',
      readAt: '2026-11-28T10:05:30.000Z',
      owed: '5510000',
      nextRunAmount: '3500000',
      nextRunPayees: 2,
      nextRunAt: '2026-11-29T08:00:00.000Z',
      covered: true,
      shortBy: '0',
    },
    {
      coin: 'LTC',
      balance: '1000000',
      readAt: '2026-11-28T09:00:00.000Z',
      owed: '4000000',
      nextRunAmount: '3500000',
      nextRunPayees: 1,
      nextRunAt: null,
      covered: false,
      shortBy: '2500000',
    },
    {
      coin: 'KAS',
      balance: null,
      readAt: null,
      owed: '0',
      nextRunAmount: '0',
      nextRunPayees: 0,
      nextRunAt: null,
      covered: null,
      shortBy: '0',
    },
  ],
};

beforeEach(() => {
  localStorage.setItem('hasVisitedBefore', 'true');
  stubOperatorApi({ '/api/operator/wallets': WALLETS });
});
afterEach(() => vi.unstubAllGlobals());

describe('the operator console: pool wallets', () => {
  it('shows each wallet read at its time against the next run: covered, short by what it lacks, or not read yet', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Wallets' }, LAZY));
    expect(await screen.findByRole('table', { name: 'Pool wallets' })).toBeInTheDocument();

    const btc = rowWith('BTC');
    expect(btc.getByText('0.05 BTC')).toBeInTheDocument();
    expect(btc.getByText(/^Read at /)).toHaveAttribute('datetime', '2026-11-28T10:05:30.000Z');
    expect(btc.getByText('0.0551 BTC')).toBeInTheDocument();
    expect(btc.getByText('0.035 BTC to 2 payees')).toBeInTheDocument();
    expect(btc.getByText('Covers the next run')).toBeInTheDocument();

    const ltc = rowWith('LTC');
    expect(ltc.getByText(/^Read at /)).toHaveAttribute('datetime', '2026-11-28T09:00:00.000Z');
    expect(ltc.getByText('0.035 LTC to 1 payee')).toBeInTheDocument();
    expect(ltc.getByText('Due now')).toBeInTheDocument();
    expect(ltc.getByText('Short by 0.025 LTC')).toBeInTheDocument();

    const kas = rowWith('KAS');
    expect(kas.getByText('Not read yet')).toBeInTheDocument();
    expect(kas.getByText('Not known yet')).toBeInTheDocument();
  });

  it('shows the wallets in Arabic', async () => {
    signInForTest(OPERATOR);
    renderWithApp(<AppRoutes />, { route: '/operator', lang: 'ar' });
    fireEvent.click(await screen.findByRole('tab', { name: 'المحافظ' }, LAZY));
    expect(await screen.findByRole('table', { name: 'محافظ المجمّع' })).toBeInTheDocument();
    expect(rowWith('BTC').getByText('تغطي الدفعة التالية')).toBeInTheDocument();
    expect(rowWith('BTC').getByText(/^قُرئ في /)).toHaveAttribute('datetime', '2026-11-28T10:05:30.000Z');
    expect(rowWith('BTC').getByText(/لمستحقَّين$/)).toBeInTheDocument();
    expect(rowWith('LTC').getByText(/^ينقصها 0.025 LTC$/)).toBeInTheDocument();
    expect(rowWith('LTC').getByText('مستحقة الآن')).toBeInTheDocument();
    expect(rowWith('KAS').getByText('لم يُقرأ بعد')).toBeInTheDocument();
  });
});
