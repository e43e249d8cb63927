// Dashboard figures, the 24-hour hashrate series and recent payouts.
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import type { DashboardResponse, HashrateResponse, Page, Payout } from '../api-types';

export const dashboardKeys = {
  summary: ['dashboard'] as const,
  hashrate: (window: '24h' | '7d') => ['hashrate', window] as const,
  recentPayouts: ['revenue', 'recent-payouts'] as const,
};

export function useDashboard(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.summary,
    queryFn: ({ signal }) => apiFetch<DashboardResponse>('/api/dashboard', { signal }),
    enabled,
  });
}

export function useHashrate24h(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.hashrate('24h'),
    queryFn: ({ signal }) => apiFetch<HashrateResponse>('/api/hashrate?window=24h&step=1h', { signal }),
    enabled,
  });
}

export function useRecentPayouts(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.recentPayouts,
    queryFn: ({ signal }) => apiFetch<Page<Payout>>('/api/payouts?page=1&pageSize=5', { signal }),
    enabled,
  });
}

/** Green when the change string carries a '+', else red (seed rule). */
export function changeTone(change: string): 'up' | 'down' {
  return change.includes('+') ? 'up' : 'down';
}
