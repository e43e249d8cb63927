// Declared miners (devices) and the pool's ports, over the API with TanStack Query.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import type { Miner, MinerInput, MinersResponse, MinerType } from '../api-types';

export type MinerFilter = 'all' | MinerType;

export const minerKeys = {
  all: ['miners'] as const,
  list: (type: MinerFilter) => ['miners', type] as const,
};

export function useMiners(type: MinerFilter) {
  return useQuery({
    queryKey: minerKeys.list(type),
    queryFn: ({ signal }) => apiFetch<MinersResponse>(`/api/miners?type=${type}`, { signal }),
  });
}

export function useCreateMiner() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MinerInput) => apiFetch<Miner>('/api/miners', { method: 'POST', body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: minerKeys.all }),
  });
}

export function useUpdateMiner() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...patch }: Partial<MinerInput> & { id: number }) =>
      apiFetch<Miner>(`/api/miners/${id}`, { method: 'PUT', body: patch }),
    onSuccess: () => client.invalidateQueries({ queryKey: minerKeys.all }),
  });
}

export function useDeleteMiner() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<undefined>(`/api/miners/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: minerKeys.all }),
  });
}
