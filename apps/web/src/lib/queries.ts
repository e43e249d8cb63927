import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { apiFetch } from './api';
import type { AccountHelp, BlockPage, PoolPorts, PoolStats, Settings, User } from './api-types';
import { useAuth } from './auth';
import type { PoolNetworks } from './api-types';

/** Query keys shared across the app so screens invalidate each other consistently. */
export const queryKeys = {
  me: ['me'] as const,
  settings: ['settings'] as const,
  poolStats: ['pool', 'stats'] as const,
  poolPorts: ['pool', 'ports'] as const,
  blocks: (page: number) => ['blocks', page] as const,
  accountHelp: ['auth', 'help'] as const,
};

/** GET /api/auth/help (public): whether the pool sends email, and the operator's contact. */
export function useAccountHelp(): UseQueryResult<AccountHelp> {
  return useQuery({
    queryKey: queryKeys.accountHelp,
    queryFn: ({ signal }) => apiFetch<AccountHelp>('/api/auth/help', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** GET /api/me, only while signed in. */
export function useMe(): UseQueryResult<User> {
  const { isSignedIn, token } = useAuth();
  return useQuery({
    queryKey: [...queryKeys.me, token],
    queryFn: ({ signal }) => apiFetch<User>('/api/me', { signal }),
    enabled: isSignedIn,
    staleTime: 30_000,
  });
}

/**
 * Whether the signed-in account may use the operator console (GET /api/me says so; the stored
 * user answers until it does). Undefined while that is not known yet; false when signed out.
 */
export function useIsOperator(): boolean | undefined {
  const { isSignedIn, user } = useAuth();
  const me = useMe();
  if (!isSignedIn) return false;
  if (me.data) return me.data.operator;
  if (user?.operator) return true;
  return me.isPending ? undefined : false;
}

export function useSettings(): UseQueryResult<Settings> {
  const { isSignedIn } = useAuth();
  return useQuery({
    queryKey: queryKeys.settings,
    queryFn: ({ signal }) => apiFetch<Settings>('/api/settings', { signal }),
    enabled: isSignedIn,
  });
}

export function usePoolStats(): UseQueryResult<PoolStats> {
  return useQuery({
    queryKey: queryKeys.poolStats,
    queryFn: ({ signal }) => apiFetch<PoolStats>('/api/pool/stats', { signal }),
    staleTime: 30_000,
  });
}

/** The network the pool runs each coin on (which payout addresses it accepts), once the stats answer. */
export function usePoolNetworks(): PoolNetworks {
  const stats = usePoolStats();
  return Object.fromEntries((stats.data?.algorithms ?? []).map((a) => [a.coin, a.network]));
}

export function usePoolPorts(): UseQueryResult<PoolPorts> {
  return useQuery({
    queryKey: queryKeys.poolPorts,
    queryFn: ({ signal }) => apiFetch<PoolPorts>('/api/pool/ports', { signal }),
    staleTime: 60_000,
  });
}

/**
 * Whether the pool accepts shares on an algorithm's port (a PORT_TABLE algorithm id such as
 * 'sha256' or 'blake2s'), from GET /api/pool/ports: true or false once known, undefined while
 * loading or when the ports cannot be read. An algorithm the table does not list is never live.
 */
export function usePortLiveness(): (algorithm: string | null) => boolean | undefined {
  const ports = usePoolPorts();
  return (algorithm) => {
    if (!ports.data) return undefined;
    // The table's (V1) row: a V2 row does not make an algorithm live for V1 miners.
    return ports.data.ports.some(
      (port) => port.algorithm === algorithm && port.live && port.protocol !== 'v2',
    );
  };
}

export function useBlocks(page = 1): UseQueryResult<BlockPage> {
  return useQuery({
    queryKey: queryKeys.blocks(page),
    queryFn: ({ signal }) => apiFetch<BlockPage>(`/api/blocks?page=${page}`, { signal }),
    staleTime: 30_000,
  });
}
