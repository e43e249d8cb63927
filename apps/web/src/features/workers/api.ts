// Live Stratum workers of the signed-in account.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import type { Worker, WorkerDetail, WorkersResponse, WorkerUpdate } from '../api-types';

export const workerKeys = {
  all: ['workers'] as const,
  list: (search: string) => ['workers', search] as const,
  detail: (id: number) => ['workers', 'detail', id] as const,
};

export function workersPath(search: string): string {
  const term = search.trim();
  return term ? `/api/workers?search=${encodeURIComponent(term)}` : '/api/workers';
}

export function useWorkers(search: string) {
  return useQuery({
    queryKey: workerKeys.list(search.trim()),
    queryFn: ({ signal }) => apiFetch<WorkersResponse>(workersPath(search), { signal }),
    placeholderData: keepPreviousData,
  });
}

/** One worker with its 10-minute hashrate over the last 24 hours (the worker detail page). */
export function useWorkerDetail(id: number) {
  return useQuery({
    queryKey: workerKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<WorkerDetail>(`/api/workers/${id}`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
}

export function useUpdateWorker() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...patch }: WorkerUpdate & { id: number }) =>
      apiFetch<Worker>(`/api/workers/${id}`, { method: 'PUT', body: patch }),
    onSuccess: () => client.invalidateQueries({ queryKey: workerKeys.all }),
  });
}

export function useDeleteWorker() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<undefined>(`/api/workers/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: workerKeys.all }),
  });
}
