import { MESSAGES } from '@manjam/contract';
import type { AlertKind } from '../../db/repositories/alerts.js';
import {
  claimPendingWebhooks,
  deleteWebhook,
  findWebhook,
  listUnsealedWebhooks,
  markWebhookFailed,
  markWebhookSent,
  recordWebhookOutcome,
  saveWebhook,
  sealWebhookUrl,
  type PendingWebhookRow,
  type SealedWebhookUrl,
  type WebhookRow,
} from '../../db/repositories/webhooks.js';
import type { Queryable } from '../../db/types.js';
import type { AlertSettings } from '../../config/alerts.js';
import { text } from '../../i18n/index.js';
import type { SecretBox } from '../auth/secret-box.js';
import { ServiceError } from '../errors.js';
import { renderAlert, type AlertLanguage } from './messages.js';
import {
  checkOutboundUrl,
  OutboundRefused,
  parseOutboundUrl,
  systemResolve,
  type Resolve,
} from '../outbound/policy.js';
import { postWebhook, type WebhookOutcome } from './webhook-send.js';

// Alert webhooks: the owner's one URL, the JSON each alert is posted as, delivery from
// the outbox with retries, and the "send test" button. Delivery is at least once: a process that
// dies after the receiver answered but before the row is marked sends it again after the lease;
// every POST carries the alert id (body `id`, header X-Manjam-Delivery) so a receiver can drop a
// repeat.
//
// The URL is sealed at rest (migration 0700): a bot URL carries the bot's token, so every write
// seals it with the pool's SecretBox and every read opens it; only its owner sees it, in full, on
// the settings screen. Rows written before 0700 hold it in clear. Decision: the alerts loop seals
// them in place at the start of every pass (the first runs when the loop starts), so they are
// sealed soon after the upgrade, and so is a row an api process of the previous version wrote
// during a rolling upgrade. Each is a compare-and-set on the plaintext (sealWebhookUrl): idempotent,
// and two processes sealing at once, or an owner saving meanwhile, leave one right row. Until then
// a read takes a value not starting with "v1:" as the URL itself (a webhook URL starts with
// https:// or http://, so it is never mistaken for a sealed one).

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
  /** Seals and opens the stored URL (the same key in every process: secretBoxFor). */
  box: SecretBox;
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
  const outcome = await postTo(row.storedUrl, webhookBody(row), headers(row.id), ctx);
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

/** The form written to user_webhooks: sealed, with its MAC (see the top of this file). */
export function sealUrl(box: SecretBox, url: string): SealedWebhookUrl {
  return { sealed: box.encrypt(url), mac: box.mac(url), plain: url };
}

/** The URL of a stored value: opened when sealed, as it is when written before 0700; null when unreadable. */
function openUrl(box: SecretBox, stored: string): string | null {
  if (!stored.startsWith('v1:')) return stored;
  try {
    return box.decrypt(stored);
  } catch {
    return null; // sealed under another key (auth.secret changed, or differs between processes)
  }
}

/** The owner's fix when the server cannot open the stored URL: saving it again seals it anew. */
const UNREADABLE = 'the saved URL cannot be read by the server: save it again';

/**
 * Seals in place every URL still stored in clear (rows from before migration 0700); answers how
 * many this call sealed. Idempotent and safe beside another process doing the same.
 */
export async function sealLegacyWebhooks(db: Queryable, box: SecretBox): Promise<number> {
  let sealed = 0;
  for (const row of await listUnsealedWebhooks(db))
    if (await sealWebhookUrl(db, row.userId, sealUrl(box, row.url))) sealed += 1;
  return sealed;
}

function postTo(
  stored: string,
  body: string,
  head: Record<string, string>,
  ctx: Pick<WebhookDeliveryContext, 'box' | 'settings' | 'resolve'>,
): Promise<WebhookOutcome> {
  const url = openUrl(ctx.box, stored);
  if (url === null) return Promise.resolve({ ok: false, retry: false, error: UNREADABLE });
  let parsed: URL;
  try {
    parsed = parseOutboundUrl(url, ctx.settings);
  } catch (error) {
    return Promise.resolve({ ok: false, retry: false, error: (error as Error).message });
  }
  return postWebhook(parsed, body, head, ctx.settings, ctx.resolve ?? systemResolve);
}

/** What the settings screen shows its owner: the URL in full (null: none, or unreadable). */
export interface WebhookView {
  url: string | null;
  lastDeliveredAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
}

function view(box: SecretBox, row: WebhookRow | undefined): WebhookView {
  return {
    url: row ? openUrl(box, row.storedUrl) : null,
    lastDeliveredAt: row?.lastDeliveredAt?.toISOString() ?? null,
    lastError: row?.lastError ?? null,
    lastErrorAt: row?.lastErrorAt?.toISOString() ?? null,
  };
}

export async function getWebhook(
  ctx: Pick<WebhookDeliveryContext, 'db' | 'box'>,
  userId: number,
): Promise<WebhookView> {
  return view(ctx.box, await findWebhook(ctx.db, userId));
}

/**
 * A catalog message (so it reaches an Arabic reader in Arabic): a host that does not resolve is
 * told so plainly; one covers every other reason (form, private or reserved address).
 */
const refused = (error: OutboundRefused) =>
  new ServiceError(400, 'validation-failed', 'validationFailed', {
    url: error.kind === 'unresolved' ? MESSAGES.webhookUnresolved : MESSAGES.webhookRefused,
  });

/**
 * Sets (or, with null, removes) the webhook URL. Refused at once when its form is not allowed or
 * its host resolves to any private or reserved address (checked again before every send).
 */
export async function setWebhook(
  ctx: Pick<WebhookDeliveryContext, 'db' | 'box' | 'settings' | 'resolve'>,
  userId: number,
  url: string | null,
): Promise<WebhookView> {
  if (url === null) {
    await deleteWebhook(ctx.db, userId);
    return view(ctx.box, undefined);
  }
  try {
    await checkOutboundUrl(url, ctx.settings, ctx.resolve ?? systemResolve);
  } catch (error) {
    if (error instanceof OutboundRefused) throw refused(error);
    throw error;
  }
  await saveWebhook(ctx.db, userId, sealUrl(ctx.box, url));
  return getWebhook(ctx, userId);
}

/** Posts a test message to the saved URL now (not queued, not retried); records and answers the outcome. */
export async function sendTestWebhook(
  ctx: Pick<WebhookDeliveryContext, 'db' | 'box' | 'settings' | 'resolve' | 'now'>,
  userId: number,
  language: AlertLanguage,
): Promise<{ delivered: boolean; error: string | null; webhook: WebhookView }> {
  const row = await findWebhook(ctx.db, userId);
  if (!row) throw new ServiceError(404, 'not-found', 'notFound');
  const body = webhookBody({ id: null, kind: 'webhook-test', createdAt: ctx.now(), payload: {}, language });
  const outcome = await postTo(row.storedUrl, body, headers(null), ctx);
  const error = outcome.ok ? null : outcome.error;
  await recordWebhookOutcome(ctx.db, userId, ctx.now(), error);
  return { delivered: outcome.ok, error, webhook: await getWebhook(ctx, userId) };
}
