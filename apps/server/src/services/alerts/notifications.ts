import {
  deletePushSubscription,
  findAlertPrefs,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  savePushSubscription,
} from '../../db/repositories/alerts.js';
import type { Queryable } from '../../db/types.js';
import { ServiceError } from '../errors.js';
import {
  checkOutboundUrl,
  OutboundRefused,
  systemResolve,
  type OutboundLimits,
  type Resolve,
} from '../outbound/policy.js';
import { MESSAGES } from '@manjam/contract';
import { renderAlert, type AlertLanguage } from './messages.js';

/** One in-app notification as GET /api/notifications returns it. */
export interface NotificationItem {
  id: number;
  kind: string;
  title: string;
  body: string;
  createdAt: string;
  read: boolean;
  /** How many events it tells: a batch of blocks counts each block. */
  count: number;
}

export const NOTIFICATIONS_LIMIT = 50;

/**
 * The user's latest notifications, newest first, rendered in `language` (or, when none is given,
 * the language in their settings).
 */
export async function listUserNotifications(
  db: Queryable,
  userId: number,
  language?: AlertLanguage,
): Promise<NotificationItem[]> {
  const prefs = await findAlertPrefs(db, userId);
  const lang = language ?? prefs?.language ?? 'en';
  const rows = await listNotifications(db, userId, NOTIFICATIONS_LIMIT);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    ...renderAlert(row.kind, row.payload, lang, prefs?.timeZone),
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
    count: typeof row.payload.count === 'number' && row.payload.count > 0 ? row.payload.count : 1,
  }));
}

/** Marks a notification read; false when it is not the user's (the route answers 404). */
export function markUserNotificationRead(db: Queryable, userId: number, alertId: number): Promise<boolean> {
  return markNotificationRead(db, userId, alertId);
}

/** Marks every unread notification of the user read; how many were. */
export function markAllUserNotificationsRead(db: Queryable, userId: number): Promise<number> {
  return markAllNotificationsRead(db, userId);
}

/**
 * Saves a browser's push subscription (already validated with pushSubscriptionSchema) for the
 * user, once its endpoint passes the outbound policy (every address of its host public; checked
 * again at every send). A refused one is a 400 on `endpoint`: a host that does not resolve says so.
 */
export async function subscribeToPush(
  db: Queryable,
  userId: number,
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  limits: Pick<OutboundLimits, 'allowLoopbackHttp'>,
  resolve: Resolve = systemResolve,
): Promise<void> {
  try {
    await checkOutboundUrl(subscription.endpoint, limits, resolve);
  } catch (error) {
    if (!(error instanceof OutboundRefused)) throw error;
    throw new ServiceError(400, 'validation-failed', 'validationFailed', {
      endpoint: error.kind === 'unresolved' ? MESSAGES.webhookUnresolved : MESSAGES.pushEndpointRefused,
    });
  }
  await savePushSubscription(db, userId, {
    endpoint: subscription.endpoint,
    p256dh: subscription.keys.p256dh,
    auth: subscription.keys.auth,
  });
}

/** Forgets one of the user's push subscriptions; false when it is not theirs. */
export function unsubscribeFromPush(db: Queryable, userId: number, endpoint: string): Promise<boolean> {
  return deletePushSubscription(db, endpoint, userId);
}
