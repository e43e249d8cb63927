export { startAlerts, type AlertsDeps, type AlertsHandle } from './loop.js';
export {
  listUserNotifications,
  markAllUserNotificationsRead,
  markUserNotificationRead,
  subscribeToPush,
  unsubscribeFromPush,
  NOTIFICATIONS_LIMIT,
  type NotificationItem,
} from './notifications.js';
export { renderAlert, renderEmail, type AlertLanguage } from './messages.js';
export { createMailer, type Mailer, type OutgoingEmail } from './mailer.js';
export { observeWorker, type WorkerObservation } from './detect.js';
export {
  createPushSender,
  loadVapidKeys,
  pushSubscriptionSchema,
  vapidSubject,
  PushGoneError,
  type PushSender,
  type VapidKeys,
} from './push.js';
