import { MESSAGES } from '@manjam/contract';
import type { AlertKind } from '../../db/repositories/alerts.js';
import {
  claimPendingWebhooks,
  deleteWebhook,
  findWebhook,
  markWebhookFailed,
  markWebhookSent,
  recordWebhookOutcome,
  saveWebhook,
  type PendingWebhookRow,
  type WebhookRow,
} from '../../db/repositories/webhooks.js';
import type { Queryable } from '../../db/types.js';
import type { AlertSettings } from '../../config/alerts.js';
import { text } from '../../i18n/index.js';
import { ServiceError } from '../errors.js';
import { renderAlert, type AlertLanguage } from './messages.js';
import {
  checkedAddress,
  parseWebhookUrl,
  postWebhook,
  systemResolve,
  WebhookRefused,
  type Resolve,
  type WebhookOutcome,
} from './webhook-send.js';

// Alert webhooks (issue 27): the owner's one URL, the JSON each alert is posted as, delivery from
// the outbox with retries, and the "send test" button. Delivery is at least once: a process that
// dies after the receiver answered but before the row is marked sends it again after the lease;
// every POST carries the alert id (body `id`, header X-Manjam-Delivery) so a receiver can drop a
// repeat.

export type WebhookSettings = AlertSettings['webhook'];

export interface WebhookMessage {
  id: number | null;
  kind: AlertKind | 'webhook-test';
  createdAt: Date;
  payload: Record<string, unknown>;
  language: AlertLanguage;
  /** The reader's time zone for times in the text (absent: UTC). */
  timeZone?: string;
}

/**
 * The JSON posted: the event, its worker and coin, when, and the text in the account's language.
 * `text` (Telegram's sendMessage, chat_id in the URL's query) and `content` (Discord) carry the
 * same message, so either bot URL works as it is.
 */
export function webhookBody(message: WebhookMessage): string {
  const { title, body } =
    message.kind === 'webhook-test'
      ? {
          title: text(message.language, 'alert.webhookTest.title'),
          body: text(message.language, 'alert.webhookTest.body'),
        }
      : renderAlert(message.kind, message.payload, message.language, message.timeZone);
  const field = (key: string) => {
    const value = message.payload[key];
    return typeof value === 'string' ? value : null;
  };
  return JSON.stringify({
    id: message.id,
    event: message.kind,
    worker: field('worker'),
    coin: field('coin'),
    at: message.createdAt.toISOString(),
    language: message.language,
    title,
    message: body,
    text: `${title}\n${body}`,
    content: `**${title}**\n${body}`,
  });
}

function headers(id: number | null): Record<string, string> {
  return { 'user-agent': 'Manjam-Alerts/1', 'x-manjam-delivery': id === null ? 'test' : String(id) };
}

/** Wait before the attempt after `attempts` failed ones: backoffSeconds, doubling each time. */
export function retryDelayMs(settings: WebhookSettings, attempts: number): number {
  return settings.backoffSeconds * 1000 * 2 ** Math.max(0, attempts - 1);
}

export interface WebhookDeliveryContext {
  db: Queryable;
  settings: WebhookSettings;
  now: () => Date;
  resolve?: Resolve;
  onFailure?: (alertId: number, attempt: number, final: boolean, error: string) => void;
}

/**
 * Sends due webhook deliveries, `concurrency` at a time (a receiver that hangs until the deadline
 * holds one slot, not the whole pass); answers how many were delivered and how many attempts failed.
 */
export async function deliverWebhooks(
  ctx: WebhookDeliveryContext,
): Promise<{ sent: number; failed: number }> {
  const now = ctx.now();
  // A claim is leased for the deadline plus a margin: no second process posts it meanwhile.
  const lease = new Date(now.getTime() + ctx.settings.timeoutMs + 60_000);
  const rows = await claimPendingWebhooks(ctx.db, now, lease, ctx.settings.batchSize);
  const counts = { sent: 0, failed: 0 };
  let next = 0;
  const slot = async (): Promise<void> => {
    for (let row = rows[next++]; row; row = rows[next++]) {
      if (await deliverOne(ctx, row)) counts.sent += 1;
      else counts.failed += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.settings.concurrency, rows.length) }, slot));
  return counts;
}

/** One claimed delivery: posted, then marked sent, retried later or given up; true when delivered. */
async function deliverOne(ctx: WebhookDeliveryContext, row: PendingWebhookRow): Promise<boolean> {
  const outcome = await postTo(row.url, webhookBody(row), headers(row.id), ctx);
  const at = ctx.now();
  if (outcome.ok) {
    await markWebhookSent(ctx.db, row.id);
    await recordWebhookOutcome(ctx.db, row.userId, at, null);
    return true;
  }
  const final = !outcome.retry || row.attempts >= ctx.settings.maxAttempts;
  const retryAt = final ? null : new Date(at.getTime() + retryDelayMs(ctx.settings, row.attempts));
  await markWebhookFailed(ctx.db, row.id, outcome.error, retryAt);
  await recordWebhookOutcome(ctx.db, row.userId, at, outcome.error);
  ctx.onFailure?.(row.id, row.attempts, final, outcome.error);
  return false;
}

function postTo(
  url: string,
  body: string,
  head: Record<string, string>,
  ctx: Pick<WebhookDeliveryContext, 'settings' | 'resolve'>,
): Promise<WebhookOutcome> {
  let parsed: URL;
  try {
    parsed = parseWebhookUrl(url, ctx.settings);
  } catch (error) {
    return Promise.resolve({ ok: false, retry: false, error: (error as Error).message });
  }
  return postWebhook(parsed, body, head, ctx.settings, ctx.resolve ?? systemResolve);
}

/** What the settings screen shows. */
export interface WebhookView {
  url: string | null;
  lastDeliveredAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
}

function view(row: WebhookRow | undefined): WebhookView {
  return {
    url: row?.url ?? null,
    lastDeliveredAt: row?.lastDeliveredAt?.toISOString() ?? null,
    lastError: row?.lastError ?? null,
    lastErrorAt: row?.lastErrorAt?.toISOString() ?? null,
  };
}

export async function getWebhook(db: Queryable, userId: number): Promise<WebhookView> {
  return view(await findWebhook(db, userId));
}

/** One catalog message (so it reaches an Arabic reader in Arabic) covers every refusal reason. */
const refused = () =>
  new ServiceError(400, 'validation-failed', 'validationFailed', { url: MESSAGES.webhookRefused });

/**
 * Sets (or, with null, removes) the webhook URL. Refused at once when its form is not allowed or
 * its host resolves to any private or reserved address (checked again before every send).
 */
export async function setWebhook(
  ctx: Pick<WebhookDeliveryContext, 'db' | 'settings' | 'resolve'>,
  userId: number,
  url: string | null,
): Promise<WebhookView> {
  if (url === null) {
    await deleteWebhook(ctx.db, userId);
    return view(undefined);
  }
  try {
    await checkedAddress(parseWebhookUrl(url, ctx.settings), ctx.settings, ctx.resolve ?? systemResolve);
  } catch (error) {
    if (error instanceof WebhookRefused) throw refused();
    throw error;
  }
  await saveWebhook(ctx.db, userId, url);
  return getWebhook(ctx.db, userId);
}

/** Posts a test message to the saved URL now (not queued, not retried); records and answers the outcome. */
export async function sendTestWebhook(
  ctx: Pick<WebhookDeliveryContext, 'db' | 'settings' | 'resolve' | 'now'>,
  userId: number,
  language: AlertLanguage,
): Promise<{ delivered: boolean; error: string | null; webhook: WebhookView }> {
  const row = await findWebhook(ctx.db, userId);
  if (!row) throw new ServiceError(404, 'not-found', 'notFound');
  const body = webhookBody({ id: null, kind: 'webhook-test', createdAt: ctx.now(), payload: {}, language });
  const outcome = await postTo(row.url, body, headers(null), ctx);
  const error = outcome.ok ? null : outcome.error;
  await recordWebhookOutcome(ctx.db, userId, ctx.now(), error);
  return { delivered: outcome.ok, error, webhook: await getWebhook(ctx.db, userId) };
}
