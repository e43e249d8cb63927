import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import type { WatchDashboard, WatchPayoutPage, WatchView, WatchWorkers } from '../../lib/api-types';

/** Watcher links refresh on their own: a watcher leaves the page open. */
const REFRESH_MS = 60_000;

const base = (token: string) => `/api/watch/${encodeURIComponent(token)}`;

export function useWatchView(token: string) {
  return useQuery({
    queryKey: ['watch', token],
    queryFn: ({ signal }) => apiFetch<WatchView>(base(token), { signal }),
  });
}

export function useWatchDashboard(token: string, enabled: boolean) {
  return useQuery({
    queryKey: ['watch', token, 'dashboard'],
    queryFn: ({ signal }) => apiFetch<WatchDashboard>(`${base(token)}/dashboard`, { signal }),
    enabled,
    refetchInterval: REFRESH_MS,
  });
}

export function useWatchWorkers(token: string, enabled: boolean) {
  return useQuery({
    queryKey: ['watch', token, 'workers'],
    queryFn: ({ signal }) => apiFetch<WatchWorkers>(`${base(token)}/workers`, { signal }),
    enabled,
    refetchInterval: REFRESH_MS,
  });
}

export function useWatchPayouts(token: string, coin: string | undefined, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['watch', token, 'payouts', coin, page],
    queryFn: ({ signal }) =>
      apiFetch<WatchPayoutPage>(
        `${base(token)}/payouts?page=${page}&pageSize=10${coin ? `&coin=${coin}` : ''}`,
        { signal },
      ),
    enabled,
  });
}
