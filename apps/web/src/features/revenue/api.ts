// Rewards and payouts from the API, with the filters the Revenue screen shows.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import { readStorage, STORAGE_KEYS } from '../../lib/storage';
import type { Coin, Page, Payout, PayoutStatus, RevenueSummary, Reward } from '../api-types';

export type RevenueKind = 'rewards' | 'payouts';

export interface RevenueFilters {
  search: string;
  coin: Coin | '';
  /** Only applies to payouts. */
  status: PayoutStatus | '';
}

export const EMPTY_FILTERS: RevenueFilters = { search: '', coin: '', status: '' };
export const PAGE_SIZE = 10;

/** Query string of a list or CSV request; empty filters are left out. */
export function revenueParams(kind: RevenueKind, filters: RevenueFilters, page?: number): URLSearchParams {
  const params = new URLSearchParams();
  if (page !== undefined) {
    params.set('page', String(page));
    params.set('pageSize', String(PAGE_SIZE));
  }
  const search = filters.search.trim();
  if (search) params.set('search', search);
  if (filters.coin) params.set('coin', filters.coin);
  if (kind === 'payouts' && filters.status) params.set('status', filters.status);
  return params;
}

export const revenueKeys = {
  all: ['revenue'] as const,
  list: (kind: RevenueKind, filters: RevenueFilters, page: number) =>
    ['revenue', kind, filters, page] as const,
};

/** Per coin: unpaid balance, today's accrued (estimated) and immature block credits. */
export function useRevenueSummary(enabled: boolean) {
  return useQuery({
    queryKey: ['revenue-summary'] as const,
    queryFn: ({ signal }) => apiFetch<RevenueSummary>('/api/revenue/summary', { signal }),
    enabled,
  });
}

export function useRewards(filters: RevenueFilters, page: number, enabled: boolean) {
  return useQuery({
    queryKey: revenueKeys.list('rewards', filters, page),
    queryFn: ({ signal }) =>
      apiFetch<Page<Reward>>(`/api/rewards?${revenueParams('rewards', filters, page).toString()}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function usePayouts(filters: RevenueFilters, page: number, enabled = true) {
  return useQuery({
    queryKey: revenueKeys.list('payouts', filters, page),
    queryFn: ({ signal }) =>
      apiFetch<Page<Payout>>(`/api/payouts?${revenueParams('payouts', filters, page).toString()}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

const API_BASE: string = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';

export class ExportError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`CSV export failed with HTTP ${status}`);
    this.name = 'ExportError';
    this.status = status;
  }
}

/** Fetches the CSV for the current filters with the Bearer token; resolves with the file. */
export async function fetchRevenueCsv(kind: RevenueKind, filters: RevenueFilters): Promise<Blob> {
  const headers = new Headers({ Accept: 'text/csv' });
  const token = readStorage(STORAGE_KEYS.token);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const query = revenueParams(kind, filters).toString();
  const response = await fetch(`${API_BASE}/api/${kind}.csv${query ? `?${query}` : ''}`, { headers });
  if (!response.ok) throw new ExportError(response.status);
  return response.blob();
}

/** Saves a blob through a temporary object URL and a download link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function csvFileName(kind: RevenueKind, today: Date): string {
  return `manjam-${kind}-${today.toISOString().slice(0, 10)}.csv`;
}
