// Alert settings of the signed-in account: thresholds per worker and for the account,
// and the alert webhook. Types from the contract (type-only: no zod in the bundle).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountAlerts,
  AlertThresholdsRequest,
  Webhook,
  WebhookTest,
  WorkerAlerts,
  WorkerAlertsRequest,
} from '@manjam/contract';
import { apiFetch } from '../../lib/api';

export const alertKeys = {
  account: ['settings', 'alerts'] as const,
  worker: (id: number) => ['workers', 'alerts', id] as const,
};

export function useAccountAlerts() {
  return useQuery({
    queryKey: alertKeys.account,
    queryFn: ({ signal }) => apiFetch<AccountAlerts>('/api/settings/alerts', { signal }),
  });
}

export function useSaveAccountThresholds() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertThresholdsRequest) =>
      apiFetch<AccountAlerts>('/api/settings/alerts', { method: 'PUT', body }),
    onSuccess: (data) => client.setQueryData(alertKeys.account, data),
  });
}

/** The webhook part of the account's alert settings changed: keep the cached view in step. */
function useWebhookUpdate() {
  const client = useQueryClient();
  return (webhook: Webhook) =>
    client.setQueryData<AccountAlerts>(alertKeys.account, (old) => (old ? { ...old, webhook } : old));
}

export function useSaveWebhook() {
  const update = useWebhookUpdate();
  return useMutation({
    mutationFn: (url: string | null) =>
      apiFetch<Webhook>('/api/settings/webhook', { method: 'PUT', body: { url } }),
    onSuccess: update,
  });
}

export function useTestWebhook() {
  const update = useWebhookUpdate();
  return useMutation({
    mutationFn: () => apiFetch<WebhookTest>('/api/settings/webhook/test', { method: 'POST' }),
    onSuccess: (result) => update(result.webhook),
  });
}

export function useWorkerAlerts(id: number) {
  return useQuery({
    queryKey: alertKeys.worker(id),
    queryFn: ({ signal }) => apiFetch<WorkerAlerts>(`/api/workers/${id}/alerts`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
}

export function useSaveWorkerAlerts(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: WorkerAlertsRequest) =>
      apiFetch<WorkerAlerts>(`/api/workers/${id}/alerts`, { method: 'PUT', body }),
    onSuccess: (data) => client.setQueryData(alertKeys.worker(id), data),
  });
}
