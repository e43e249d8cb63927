import type { AlertKind } from './alerts.js';
import type { Queryable } from '../types.js';
import { USER_TIME_ZONE_SQL } from './settings.js';

// Alert webhooks (issue 27): one URL per account, and the webhook outbox columns of `alerts`
// (webhook_status, webhook_attempts, webhook_next_at, webhook_error). Parameterized SQL only.

export interface WebhookRow {
  url: string;
  lastDeliveredAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
}

export async function findWebhook(db: Queryable, userId: number): Promise<WebhookRow | undefined> {
  const result = await db.query<WebhookRow>(
    `SELECT url, last_delivered_at AS "lastDeliveredAt", last_error AS "lastError", last_error_at AS "lastErrorAt"
       FROM user_webhooks WHERE user_id = $1`,
    [userId],
  );
  return result.rows[0];
}

/** Sets the account's webhook URL; a new URL starts with no outcome recorded. */
export async function saveWebhook(db: Queryable, userId: number, url: string): Promise<void> {
  await db.query(
    `INSERT INTO user_webhooks (user_id, url) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET url = EXCLUDED.url, updated_at = now(),
       last_delivered_at = CASE WHEN user_webhooks.url = EXCLUDED.url THEN user_webhooks.last_delivered_at END,
       last_error = CASE WHEN user_webhooks.url = EXCLUDED.url THEN user_webhooks.last_error END,
       last_error_at = CASE WHEN user_webhooks.url = EXCLUDED.url THEN user_webhooks.last_error_at END`,
    [userId, url],
  );
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
  url: string;
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
               a.webhook_attempts AS attempts, h.url, coalesce(s.language, 'en') AS language,
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
