// Browser push (VAPID): service worker /sw.js, Notification permission, PushManager subscription,
// saved with PUT /api/notifications/push-subscription and removed with DELETE.
import { ApiError, apiFetch } from '../../lib/api';

export const SERVICE_WORKER_URL = '/sw.js';

/** What happened to this browser's push subscription after Settings were saved. */
export type PushOutcome = 'subscribed' | 'unsubscribed' | 'unsupported' | 'denied' | 'failed';

/** Decodes base64url (the VAPID public key) into the bytes PushManager.subscribe expects. */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) throw new Error('Not base64url');
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (value.length % 4)) % 4);
  const binary = window.atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function pushSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window.PushManager !== 'undefined' &&
    typeof window.Notification !== 'undefined'
  );
}

async function permission(): Promise<NotificationPermission> {
  if (Notification.permission !== 'default') return Notification.permission;
  return Notification.requestPermission();
}

async function subscription(registration: ServiceWorkerRegistration): Promise<PushSubscription> {
  const existing = await registration.pushManager.getSubscription();
  if (existing) return existing;
  const { publicKey } = await apiFetch<{ publicKey: string }>('/api/notifications/push-key');
  return registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: base64UrlToBytes(publicKey),
  });
}

/** Registers the service worker, asks for permission, subscribes and saves the subscription. */
export async function enablePush(): Promise<PushOutcome> {
  if (!pushSupported()) return 'unsupported';
  if ((await permission()) !== 'granted') return 'denied';
  try {
    await navigator.serviceWorker.register(SERVICE_WORKER_URL);
    const registration = await navigator.serviceWorker.ready;
    const sub = await subscription(registration);
    await apiFetch<undefined>('/api/notifications/push-subscription', { method: 'PUT', body: sub.toJSON() });
    return 'subscribed';
  } catch {
    return 'failed';
  }
}

/** Unsubscribes this browser and tells the server to stop pushing to it. */
export async function disablePush(): Promise<PushOutcome> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return 'unsubscribed';
  try {
    const registration = await navigator.serviceWorker.getRegistration(SERVICE_WORKER_URL);
    const sub = await registration?.pushManager.getSubscription();
    if (!sub) return 'unsubscribed';
    const { endpoint } = sub;
    await sub.unsubscribe();
    await apiFetch<undefined>('/api/notifications/push-subscription', {
      method: 'DELETE',
      body: { endpoint },
    }).catch((error: unknown) => {
      // 404: the server had already dropped it (expired or never saved); nothing is pushed either way.
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    });
    return 'unsubscribed';
  } catch {
    return 'failed';
  }
}

/**
 * Brings this browser in line with the saved Push Notifications setting. Turning it on prompts
 * for permission only when it was just switched on; an unchanged 'on' re-subscribes silently
 * when permission was granted earlier (e.g. after the browser dropped the subscription).
 */
export async function syncPush(wanted: boolean, changed: boolean): Promise<PushOutcome | null> {
  if (!wanted) return changed ? disablePush() : null;
  if (changed) return enablePush();
  if (pushSupported() && Notification.permission === 'granted') return enablePush();
  return null;
}
