import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import type {
  ApiTokenList,
  CreateApiToken,
  CreatedApiToken,
  CreateWatchLink,
  WatchLink,
  WatchLinkList,
} from '../../lib/api-types';

export const monitoringKeys = {
  tokens: ['settings', 'api-tokens'] as const,
  links: ['settings', 'watch-links'] as const,
};

export function useApiTokens() {
  return useQuery({
    queryKey: monitoringKeys.tokens,
    queryFn: ({ signal }) => apiFetch<ApiTokenList>('/api/settings/api-tokens', { signal }),
  });
}

export function useWatchLinks() {
  return useQuery({
    queryKey: monitoringKeys.links,
    queryFn: ({ signal }) => apiFetch<WatchLinkList>('/api/settings/watch-links', { signal }),
  });
}

export function useCreateApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiToken) =>
      apiFetch<CreatedApiToken>('/api/settings/api-tokens', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: monitoringKeys.tokens }),
  });
}

export function useCreateWatchLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWatchLink) =>
      apiFetch<WatchLink>('/api/settings/watch-links', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: monitoringKeys.links }),
  });
}

/** Revokes a token or a link by id, then re-reads its list. */
export function useRevoke(kind: 'api-tokens' | 'watch-links') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<undefined>(`/api/settings/${kind}/${id}`, { method: 'DELETE' }),
    onSuccess: () =>
      client.invalidateQueries({
        queryKey: kind === 'api-tokens' ? monitoringKeys.tokens : monitoringKeys.links,
      }),
  });
}

/** Expiry choices in days; null lasts until revoked. */
export const EXPIRY_CHOICES = [null, 7, 30, 90, 365] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];
