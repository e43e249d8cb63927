// The operator console's calls (/api/operator/*). Every write invalidates the whole console, so
// each section shows what the server holds after it.
import type {
  BlockPage,
  LiftBanRequest,
  OperatorActionPage,
  OperatorAlert,
  OperatorAlerts,
  OperatorBans,
  OperatorHealth,
  OperatorPayoutRunPage,
  OperatorPorts,
  OperatorRole,
  OperatorRoleRequest,
  OperatorWallets,
  RecreditedBlock,
  RunningConfig,
  SettledRun,
  SettleRunRequest,
  TopWorkers,
  TopWorkerWindow,
} from '@manjam/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';

export const OPERATOR_PAGE_SIZE = 20;

export const operatorKeys = {
  all: ['operator'] as const,
  health: ['operator', 'health'] as const,
  alerts: (page: number) => ['operator', 'alerts', page] as const,
  runs: (page: number) => ['operator', 'runs', page] as const,
  blocks: (page: number) => ['operator', 'blocks', page] as const,
  bans: ['operator', 'bans'] as const,
  actions: (page: number) => ['operator', 'actions', page] as const,
  topWorkers: (window: TopWorkerWindow) => ['operator', 'top-workers', window] as const,
  config: ['operator', 'config'] as const,
  wallets: ['operator', 'wallets'] as const,
  ports: ['operator', 'ports'] as const,
};

const paged = (path: string, page: number) => `${path}?page=${page}&pageSize=${OPERATOR_PAGE_SIZE}`;

export function useOperatorHealth() {
  return useQuery({
    queryKey: operatorKeys.health,
    queryFn: ({ signal }) => apiFetch<OperatorHealth>('/api/operator/health', { signal }),
    refetchInterval: 15_000,
  });
}

/** The pool wallets against the next payout run, refreshed every minute. */
export function useOperatorWallets() {
  return useQuery({
    queryKey: operatorKeys.wallets,
    queryFn: ({ signal }) => apiFetch<OperatorWallets>('/api/operator/wallets', { signal }),
    refetchInterval: 60_000,
  });
}

export function useOperatorAlerts(page: number) {
  return useQuery({
    queryKey: operatorKeys.alerts(page),
    queryFn: ({ signal }) => apiFetch<OperatorAlerts>(paged('/api/operator/alerts', page), { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useOperatorRuns(page: number) {
  return useQuery({
    queryKey: operatorKeys.runs(page),
    queryFn: ({ signal }) =>
      apiFetch<OperatorPayoutRunPage>(paged('/api/operator/payout-runs', page), { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useOperatorBlocks(page: number) {
  return useQuery({
    queryKey: operatorKeys.blocks(page),
    queryFn: ({ signal }) => apiFetch<BlockPage>(paged('/api/operator/blocks', page), { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useOperatorBans() {
  return useQuery({
    queryKey: operatorKeys.bans,
    queryFn: ({ signal }) => apiFetch<OperatorBans>('/api/operator/bans', { signal }),
  });
}

export function useOperatorActions(page: number) {
  return useQuery({
    queryKey: operatorKeys.actions(page),
    queryFn: ({ signal }) => apiFetch<OperatorActionPage>(paged('/api/operator/actions', page), { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useTopWorkers(window: TopWorkerWindow) {
  return useQuery({
    queryKey: operatorKeys.topWorkers(window),
    queryFn: ({ signal }) => apiFetch<TopWorkers>(`/api/operator/top-workers?window=${window}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

export function useRunningConfig() {
  return useQuery({
    queryKey: operatorKeys.config,
    queryFn: ({ signal }) => apiFetch<RunningConfig>('/api/operator/config', { signal }),
  });
}

function useOperatorWrite<V, R>(call: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: operatorKeys.all }),
  });
}

export const useCloseAlert = () =>
  useOperatorWrite((id: string) =>
    apiFetch<OperatorAlert>(`/api/operator/alerts/${encodeURIComponent(id)}/close`, { method: 'POST' }),
  );

/** Credits a returned block's payees back what its orphaning reversed (`manjam block-recredit`). */
export const useRecreditBlock = () =>
  useOperatorWrite((blockId: string) =>
    apiFetch<RecreditedBlock>(`/api/operator/blocks/${encodeURIComponent(blockId)}/recredit`, {
      method: 'POST',
    }),
  );

export const useSettleRun = () =>
  useOperatorWrite(({ id, request }: { id: string; request: SettleRunRequest }) =>
    apiFetch<SettledRun>(`/api/operator/payout-runs/${encodeURIComponent(id)}/settle`, {
      method: 'POST',
      body: request,
    }),
  );

export const useLiftBan = () =>
  useOperatorWrite((request: LiftBanRequest) =>
    apiFetch<{ lifted: number }>('/api/operator/bans/lift', { method: 'POST', body: request }),
  );

export const useSetOperatorRole = () =>
  useOperatorWrite((request: OperatorRoleRequest) =>
    apiFetch<OperatorRole>('/api/operator/operators', { method: 'POST', body: request }),
  );

/** Each live Stratum port's connections, shares/s and hashrate, refreshed every 15 seconds. */
export function useOperatorPorts() {
  return useQuery({
    queryKey: operatorKeys.ports,
    queryFn: ({ signal }) => apiFetch<OperatorPorts>('/api/operator/ports', { signal }),
    refetchInterval: 15_000,
  });
}
