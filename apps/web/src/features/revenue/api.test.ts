import { afterEach, describe, expect, it, vi } from 'vitest';
import { csvFileName, fetchRevenueCsv, revenueParams, EMPTY_FILTERS } from './api';
import { formatDifficulty, formatSettlement, pageCount, payoutStatusTone, visiblePages } from './format';

afterEach(() => vi.unstubAllGlobals());

describe('revenue CSV export', () => {
  it('requests the payouts CSV with the current filters and the Bearer token', async () => {
    localStorage.setItem('token', 'tok-123');
    const fetchMock = vi.fn<typeof fetch>(() =>
      Promise.resolve(
        new Response('date,amount\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const blob = await fetchRevenueCsv('payouts', { search: ' 2026-11-01 ', coin: 'LTC', status: 'pending' });
    expect(await blob.text()).toBe('date,amount\n');
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/payouts.csv?search=2026-11-01&coin=LTC&status=pending');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok-123');
  });

  it('leaves the payout status out of a rewards export and rejects a failed download', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(new Response('', { status: 401 }))),
    );
    await expect(fetchRevenueCsv('rewards', { search: '', coin: 'BTC', status: 'failed' })).rejects.toThrow(
      'HTTP 401',
    );
    expect(revenueParams('rewards', { search: '', coin: 'BTC', status: 'failed' }).toString()).toBe(
      'coin=BTC',
    );
  });

  it('asks the list endpoints for one page of ten', () => {
    expect(revenueParams('rewards', EMPTY_FILTERS, 3).toString()).toBe('page=3&pageSize=10');
    expect(csvFileName('rewards', new Date('2026-11-22T06:00:00Z'))).toBe('manjam-rewards-2026-11-22.csv');
  });
});

describe('revenue formatting', () => {
  it('writes difficulty the seed way, 36.76 T', () => {
    expect(formatDifficulty(36_760_000_000_000)).toBe('36.76 T');
    expect(formatDifficulty(1_500_000)).toBe('1.50 M');
    expect(formatDifficulty(12.5)).toBe('12.50');
  });
  it('shows settlement at 03:00 Riyadh time for a midnight UTC settlement', () => {
    expect(formatSettlement('2026-11-21T00:00:00Z', 'en')).toBe('Nov 21, 2026, 03:00');
  });
  it('colours payouts: completed green, pending orange, anything else red', () => {
    expect(payoutStatusTone('completed')).toBe('success');
    expect(payoutStatusTone('pending')).toBe('warning');
    expect(payoutStatusTone('failed')).toBe('danger');
  });
  it('paginates from the server total', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(41, 10)).toBe(5);
    expect(visiblePages(1, 3)).toEqual([1, 2, 3]);
    expect(visiblePages(9, 12)).toEqual([7, 8, 9, 10, 11]);
    expect(visiblePages(12, 12)).toEqual([8, 9, 10, 11, 12]);
  });
});
