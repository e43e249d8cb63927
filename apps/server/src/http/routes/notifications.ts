import { notificationListSchema } from '@manjam/contract';
import { z } from 'zod';
import { listUserNotifications, markUserNotificationRead } from '../../services/alerts/index.js';
import { notFound } from '../../services/errors.js';
import { defineRoute } from '../route.js';
import type { RouteModule } from './index.js';

const notificationParamsSchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** In-app notifications (the alerts of issue 7), in the request's language, newest first. */
export const notificationsRoutes: RouteModule = ({ deps }) => [
  defineRoute({
    method: 'GET', url: '/api/notifications', tag: 'notifications', auth: 'user', response: notificationListSchema,
    summary: 'Your latest 50 notifications: worker offline/recovered, hashrate drop, block found, payout sent',
    handler: async ({ auth, language }) => ({ items: await listUserNotifications(deps.db, auth.user.id, language) }),
  }),
  defineRoute({
    method: 'POST', url: '/api/notifications/:id/read', tag: 'notifications', auth: 'user', params: notificationParamsSchema,
    summary: 'Mark one of your notifications read (404 when it is not yours)',
    handler: async ({ auth, params }) => {
      if (!(await markUserNotificationRead(deps.db, auth.user.id, params.id))) throw notFound();
      return undefined;
    },
  }),
];
