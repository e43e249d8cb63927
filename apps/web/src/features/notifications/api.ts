import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import type { MarkAllReadResponse, NotificationList } from '../../lib/api-types';
import { useAuth } from '../../lib/auth';

export type AppNotification = NotificationList['items'][number];

export const notificationsKey = ['notifications'] as const;

/** How often the list is refreshed while the app is open (alerts are raised every minute at most). */
export const NOTIFICATIONS_REFRESH_MS = 60_000;

/** GET /api/notifications (newest first), only while signed in; refreshed every minute. */
export function useNotifications(): UseQueryResult<NotificationList> {
  const { isSignedIn, token } = useAuth();
  return useQuery({
    queryKey: [...notificationsKey, token],
    queryFn: ({ signal }) => apiFetch<NotificationList>('/api/notifications', { signal }),
    enabled: isSignedIn,
    refetchInterval: NOTIFICATIONS_REFRESH_MS,
    staleTime: 30_000,
  });
}

export function unreadCount(list: NotificationList | undefined): number {
  return list ? list.items.filter((item) => !item.read).length : 0;
}

/** POST /api/notifications/:id/read; on success the item shows as read at once. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<undefined>(`/api/notifications/${id}/read`, { method: 'POST' }),
    onSuccess: (_result, id) => {
      queryClient.setQueriesData<NotificationList>({ queryKey: notificationsKey }, (list) =>
        list ? { items: list.items.map((item) => (item.id === id ? { ...item, read: true } : item)) } : list,
      );
      return queryClient.invalidateQueries({ queryKey: notificationsKey });
    },
  });
}

/** POST /api/notifications/read-all; on success every notification shows as read at once. */
export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<MarkAllReadResponse>('/api/notifications/read-all', { method: 'POST' }),
    onSuccess: () => {
      queryClient.setQueriesData<NotificationList>({ queryKey: notificationsKey }, (list) =>
        list ? { items: list.items.map((item) => ({ ...item, read: true })) } : list,
      );
      return queryClient.invalidateQueries({ queryKey: notificationsKey });
    },
  });
}
