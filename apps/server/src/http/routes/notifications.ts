import { markAllReadResponseSchema, notificationListSchema } from '@manjam/contract';
import { z } from 'zod';
import {
  listUserNotifications,
  loadVapidKeys,
  markAllUserNotificationsRead,
  markUserNotificationRead,
  pushSubscriptionSchema,
  subscribeToPush,
  unsubscribeFromPush,
} from '../../services/alerts/index.js';
import { notFound } from '../../services/errors.js';
import { defineRoute } from '../route.js';
import type { RouteModule } from './module.js';

const notificationParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const pushKeySchema = z.object({ publicKey: z.string() });
const endpointSchema = z.object({ endpoint: z.string().min(1).max(2_000) });

/**
 * In-app alert notifications, in the request's language, newest first; and the
 * browser push subscription (VAPID) for the same alerts.
 */
export const notificationsRoutes: RouteModule = ({ deps }) => [
  defineRoute({
    method: 'GET',
    url: '/api/notifications',
    tag: 'notifications',
    auth: 'user',
    response: notificationListSchema,
    summary:
      'Your latest 50 notifications: worker offline/recovered, hashrate drop, block found, payout sent',
    handler: async ({ auth, language }) => ({
      items: await listUserNotifications(deps.db, auth.user.id, language),
    }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/notifications/:id/read',
    tag: 'notifications',
    auth: 'user',
    params: notificationParamsSchema,
    summary: 'Mark one of your notifications read (404 when it is not yours)',
    handler: async ({ auth, params }) => {
      if (!(await markUserNotificationRead(deps.db, auth.user.id, params.id))) throw notFound();
      return undefined;
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/notifications/read-all',
    tag: 'notifications',
    auth: 'user',
    response: markAllReadResponseSchema,
    summary: 'Mark all of your notifications read; answers how many were unread',
    handler: async ({ auth }) => ({ marked: await markAllUserNotificationsRead(deps.db, auth.user.id) }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/notifications/push-key',
    tag: 'notifications',
    auth: 'public',
    response: pushKeySchema,
    summary: "The pool's VAPID public key, for the browser's pushManager.subscribe (applicationServerKey)",
    handler: () => Promise.resolve({ publicKey: loadVapidKeys(deps.config.dataDir).publicKey }),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/notifications/push-subscription',
    tag: 'notifications',
    auth: 'user',
    body: pushSubscriptionSchema,
    summary:
      "Save this browser's push subscription (PushSubscription.toJSON()): alerts are then pushed to it",
    handler: async ({ auth, body }) => {
      await subscribeToPush(deps.db, auth.user.id, body, deps.config.alerts.webhook, deps.resolve);
      return undefined;
    },
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/notifications/push-subscription',
    tag: 'notifications',
    auth: 'user',
    body: endpointSchema,
    summary: 'Stop pushing to this browser (404 when the subscription is not yours)',
    handler: async ({ auth, body }) => {
      if (!(await unsubscribeFromPush(deps.db, auth.user.id, body.endpoint))) throw notFound();
      return undefined;
    },
  }),
];
