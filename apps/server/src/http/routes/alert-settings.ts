import {
  accountAlertsSchema,
  alertThresholdsRequestSchema,
  idParamsSchema,
  recoveryCodesLeftSchema,
  recoveryCodesSchema,
  totpCodeRequestSchema,
  webhookRequestSchema,
  webhookSchema,
  webhookTestSchema,
  workerAlertsRequestSchema,
  workerAlertsSchema,
} from '@manjam/contract';
import {
  getAccountAlerts,
  getWorkerAlerts,
  setAccountThresholds,
  setWorkerAlerts,
} from '../../services/alerts/thresholds.js';
import { sendTestWebhook, setWebhook } from '../../services/alerts/webhook.js';
import { defineRoute } from '../route.js';
import type { RouteModule } from './module.js';

/** Alert thresholds (account default and per worker), the alert webhook, 2FA recovery codes. */
export const alertSettingsRoutes: RouteModule = ({ deps, services }) => {
  const alerts = deps.config.alerts;
  const account = { db: deps.db, box: services.box };
  const webhook = {
    ...account,
    settings: alerts.webhook,
    now: () => new Date(services.now()),
  };
  return [
    defineRoute({
      method: 'GET',
      url: '/api/settings/alerts',
      tag: 'settings',
      auth: 'user',
      response: accountAlertsSchema,
      summary: "The account's default alert thresholds (null: the pool's), their range, and the webhook",
      handler: ({ auth }) => getAccountAlerts(account, alerts, auth.user.id),
    }),
    defineRoute({
      method: 'PUT',
      url: '/api/settings/alerts',
      tag: 'settings',
      auth: 'user',
      body: alertThresholdsRequestSchema,
      response: accountAlertsSchema,
      summary:
        'Set the default offline minutes and hashrate-drop percent of your workers (null: the pool default)',
      handler: ({ auth, body }) => setAccountThresholds(account, alerts, auth.user.id, body),
    }),
    defineRoute({
      method: 'PUT',
      url: '/api/settings/webhook',
      tag: 'settings',
      auth: 'user',
      rateLimit: 'auth',
      body: webhookRequestSchema,
      response: webhookSchema,
      summary:
        'Set (or with null remove) the alert webhook URL: https, and a host that resolves to public addresses only',
      handler: ({ auth, body }) => setWebhook(webhook, auth.user.id, body.url === '' ? null : body.url),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/settings/webhook/test',
      tag: 'settings',
      auth: 'user',
      rateLimit: 'auth',
      response: webhookTestSchema,
      summary:
        'Post a test message to the webhook now; answers whether it was delivered and the error if not',
      handler: async ({ auth }) => {
        const language = (await services.settings.get(auth.user)).language;
        return sendTestWebhook(webhook, auth.user.id, language);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/workers/:id/alerts',
      tag: 'workers',
      auth: 'user',
      params: idParamsSchema,
      notFound: { key: 'workerNotFound', code: 'worker-not-found' },
      response: workerAlertsSchema,
      summary: "One worker's alert thresholds: its own, the ones in force, and their range",
      handler: ({ auth, params }) => getWorkerAlerts(deps.db, alerts, auth.user.id, params.id),
    }),
    defineRoute({
      method: 'PUT',
      url: '/api/workers/:id/alerts',
      tag: 'workers',
      auth: 'user',
      params: idParamsSchema,
      notFound: { key: 'workerNotFound', code: 'worker-not-found' },
      body: workerAlertsRequestSchema,
      response: workerAlertsSchema,
      summary: "Set one worker's alert thresholds (null: the account default) or turn its alerts off",
      handler: ({ auth, params, body }) => setWorkerAlerts(deps.db, alerts, auth.user.id, params.id, body),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/auth/2fa/recovery-codes',
      tag: 'auth',
      auth: 'user',
      response: recoveryCodesLeftSchema,
      summary: 'How many unused 2FA recovery codes you have',
      handler: async ({ auth }) => ({ left: await services.auth.recoveryCodesLeft(auth.user) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/auth/2fa/recovery-codes',
      tag: 'auth',
      auth: 'user',
      rateLimit: 'auth',
      body: totpCodeRequestSchema,
      response: recoveryCodesSchema,
      summary:
        'New 2FA recovery codes (shown once) for the password and a current code; the old ones stop working',
      handler: async ({ auth, body }) => ({
        codes: await services.auth.regenerateRecoveryCodes(auth.user, body.password, body.code),
      }),
    }),
  ];
};
