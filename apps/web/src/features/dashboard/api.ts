// Dashboard figures, the 24-hour hashrate series and recent payouts.
import type { PoolCoin } from '@manjam/contract';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import type { DashboardResponse, HashrateResponse, Page, Payout } from '../api-types';

export const dashboardKeys = {
  summary: ['dashboard'] as const,
  hashrate: (window: '24h' | '7d', coin: PoolCoin) => ['hashrate', window, coin] as const,
  recentPayouts: ['revenue', 'recent-payouts'] as const,
};

export function useDashboard(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.summary,
    queryFn: ({ signal }) => apiFetch<DashboardResponse>('/api/dashboard', { signal }),
    enabled,
  });
}

/** The user's hourly hashrate over 24 h on one coin's algorithm. */
export function useHashrate24h(coin: PoolCoin) {
  return useQuery({
    queryKey: dashboardKeys.hashrate('24h', coin),
    queryFn: ({ signal }) =>
      apiFetch<HashrateResponse>(`/api/hashrate?window=24h&step=1h&coin=${coin}`, { signal }),
  });
}

export function useRecentPayouts(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.recentPayouts,
    queryFn: ({ signal }) => apiFetch<Page<Payout>>('/api/payouts?page=1&pageSize=5', { signal }),
    enabled,
  });
}
