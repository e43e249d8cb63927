// Public miner search by wallet address (or address.worker); signed in, also one's own workers by name.
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import type { SearchResponse } from '../api-types';

export type SearchQueryError = 'blank';

/** A search needs non-blank text ('Please enter a wallet address or worker ID'). */
export function validateSearchQuery(raw: string): SearchQueryError | null {
  return raw.trim() === '' ? 'blank' : null;
}

export const searchKeys = { query: (q: string) => ['search', q] as const };

export function useMinerSearch(query: string) {
  const q = query.trim();
  return useQuery({
    queryKey: searchKeys.query(q),
    queryFn: ({ signal }) => apiFetch<SearchResponse>(`/api/search?q=${encodeURIComponent(q)}`, { signal }),
    enabled: q !== '',
  });
}
