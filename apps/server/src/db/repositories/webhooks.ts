import type { AlertKind } from './alerts.js';
import type { Queryable } from '../types.js';
import { USER_TIME_ZONE_SQL } from './settings.js';

// Alert webhooks: one URL per account, and the webhook outbox columns of `alerts`
// (webhook_status, webhook_attempts, webhook_next_at, webhook_error). Parameterized SQL only.
// The URL is stored sealed (migration 0700): `url` holds the SecretBox form, `url_mac` its MAC;
// sealing and opening happen in services/alerts/webhook.ts, never here.

export interface WebhookRow {
  /** The sealed URL ("v1:..."), or the plaintext of a row written before 0700 not yet sealed. */
  storedUrl: string;
  lastDeliveredAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
}

export async function findWebhook(db: Queryable, userId: number): Promise<WebhookRow | undefined> {
  const result = await db.query<WebhookRow>(
    `SELECT url AS "storedUrl", last_delivered_at AS "lastDeliveredAt", last_error AS "lastError",
            last_error_at AS "lastErrorAt"
       FROM user_webhooks WHERE user_id = $1`,
    [userId],
  );
  return result.rows[0];
}

/** A URL to store: its sealed form and its MAC (and the URL itself, to compare with an unsealed row). */
export interface SealedWebhookUrl {
  sealed: string;
  mac: string;
  plain: string;
}

/**
 * Sets the account's webhook URL; a new URL starts with no outcome recorded, the same URL keeps
 * it. "The same" is the same MAC, or, for a row written before 0700 and not sealed yet, the same
 * plaintext (compared here, never stored).
 */
export async function saveWebhook(db: Queryable, userId: number, url: SealedWebhookUrl): Promise<void> {
  await db.query(
    `INSERT INTO user_webhooks (user_id, url, url_mac) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET url = EXCLUDED.url, url_mac = EXCLUDED.url_mac, updated_at = now(),
       last_delivered_at = CASE WHEN user_webhooks.url_mac = EXCLUDED.url_mac OR user_webhooks.url = $4
                                THEN user_webhooks.last_delivered_at END,
       last_error = CASE WHEN user_webhooks.url_mac = EXCLUDED.url_mac OR user_webhooks.url = $4
                         THEN user_webhooks.last_error END,
       last_error_at = CASE WHEN user_webhooks.url_mac = EXCLUDED.url_mac OR user_webhooks.url = $4
                            THEN user_webhooks.last_error_at END`,
    [userId, url.sealed, url.mac, url.plain],
  );
}

/** Rows written before 0700 whose URL is still in clear (a sealed URL starts with "v1:"). */
export async function listUnsealedWebhooks(db: Queryable): Promise<{ userId: number; url: string }[]> {
  const result = await db.query<{ userId: number; url: string }>(
    `SELECT user_id AS "userId", url FROM user_webhooks WHERE url NOT LIKE 'v1:%' ORDER BY user_id`,
  );
  return result.rows;
}

/**
 * Replaces one row's plaintext URL with its sealed form, only while the row still holds that
 * plaintext (compare-and-set: a row another process sealed, or its owner changed, is left alone).
 * Answers whether this call sealed it. The outcome columns and updated_at are not touched.
 */
export async function sealWebhookUrl(db: Queryable, userId: number, url: SealedWebhookUrl): Promise<boolean> {
  const result = await db.query(
    'UPDATE user_webhooks SET url = $2, url_mac = $3 WHERE user_id = $1 AND url = $4',
    [userId, url.sealed, url.mac, url.plain],
  );
  return result.rowCount > 0;
}

/** Removes the account's webhook; its undelivered alerts are not sent anywhere. */
export async function deleteWebhook(db: Queryable, userId: number): Promise<void> {
  await db.query(
    `UPDATE alerts SET webhook_status = 'skipped' WHERE user_id = $1 AND webhook_status = 'pending'`,
    [userId],
  );
  await db.query('DELETE FROM user_webhooks WHERE user_id = $1', [userId]);
}

/** The outcome of the last attempt (a delivery or a test), shown on the settings screen. */
export async function recordWebhookOutcome(
  db: Queryable,
  userId: number,
  at: Date,
  error: string | null,
): Promise<void> {
  await db.query(
    `UPDATE user_webhooks SET
       last_delivered_at = CASE WHEN $3::text IS NULL THEN $2 ELSE last_delivered_at END,
       last_error = CASE WHEN $3::text IS NULL THEN last_error ELSE $3 END,
       last_error_at = CASE WHEN $3::text IS NULL THEN last_error_at ELSE $2 END
     WHERE user_id = $1`,
    [userId, at, error === null ? null : error.slice(0, 500)],
  );
}

export interface PendingWebhookRow {
  id: number;
  userId: number;
  kind: AlertKind;
  payload: Record<string, unknown>;
  createdAt: Date;
  /** Attempts so far, this claim included. */
  attempts: number;
  /** As WebhookRow.storedUrl. */
  storedUrl: string;
  language: 'en' | 'ar';
  timeZone: string;
}

/**
 * Claims up to `limit` pending webhook deliveries that are due (never tried, or their retry time
 * has come) and leases them until `leaseUntil`: each claim counts as an attempt, and a process
 * that dies mid-request leaves the row to be claimed again once the lease ran out.
 */
export async function claimPendingWebhooks(
  db: Queryable,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<PendingWebhookRow[]> {
  const result = await db.query<PendingWebhookRow & { id: bigint }>(
    `UPDATE alerts a SET webhook_attempts = a.webhook_attempts + 1, webhook_next_at = $2
       FROM user_webhooks h, users u LEFT JOIN user_settings s ON s.user_id = u.id
      WHERE h.user_id = a.user_id AND u.id = a.user_id AND a.id IN (
        SELECT id FROM alerts WHERE webhook_status = 'pending' AND (webhook_next_at IS NULL OR webhook_next_at <= $1)
         ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING a.id, a.user_id AS "userId", a.kind, a.payload, a.created_at AS "createdAt",
               a.webhook_attempts AS attempts, h.url AS "storedUrl", coalesce(s.language, 'en') AS language,
               ${USER_TIME_ZONE_SQL} AS "timeZone"`,
    [now, leaseUntil, limit],
  );
  return result.rows.map((row) => ({ ...row, id: Number(row.id) })).sort((a, b) => a.id - b.id);
}

export async function markWebhookSent(db: Queryable, alertId: number): Promise<void> {
  await db.query(
    `UPDATE alerts SET webhook_status = 'sent', webhook_error = NULL WHERE id = $1 AND webhook_status = 'pending'`,
    [alertId],
  );
}

/** A failed attempt: retried at `retryAt`, or given up ('failed') when `retryAt` is null. */
export async function markWebhookFailed(
  db: Queryable,
  alertId: number,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await db.query(
    `UPDATE alerts SET webhook_error = $2, webhook_next_at = coalesce($3, webhook_next_at),
       webhook_status = CASE WHEN $3::timestamptz IS NULL THEN 'failed' ELSE webhook_status END
      WHERE id = $1 AND webhook_status = 'pending'`,
    [alertId, error.slice(0, 500), retryAt],
  );
}
