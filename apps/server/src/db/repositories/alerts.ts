import type { Queryable } from '../types.js';
import { USER_TIME_ZONE_SQL } from './settings.js';

// Alerts: the `alerts` rows (in-app notifications + email queue), the per-worker debounce state,
// and the events worth an alert (offline workers, found blocks, sent payouts). Parameterized SQL only.

export const ALERT_KINDS = [
  'worker-offline',
  'worker-recovered',
  'hashrate-drop',
  'block-found',
  'payout-sent',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export type WorkerAlertStatus = 'online' | 'offline' | 'recovering';

/** A user's alert settings (seed defaults when the user has no settings row). */
export interface AlertPrefs {
  userId: number;
  language: 'en' | 'ar';
  /** The reader's time zone (settings.ts USER_TIME_ZONE_SQL). */
  timeZone: string;
  notifications: boolean;
  emailAlerts: boolean;
}

export interface NewAlert {
  userId: number;
  kind: AlertKind;
  workerId: number | null;
  dedupeKey: string;
  payload: Record<string, string | number | boolean | null>;
  inApp: boolean;
  emailStatus: 'pending' | 'skipped';
  /** Push to the user's browsers (only for alerts shown in the app). */
  push: boolean;
}

export interface NotificationRow {
  id: number;
  kind: AlertKind;
  payload: Record<string, unknown>;
  createdAt: Date;
  readAt: Date | null;
}

export interface PendingEmailRow {
  id: number;
  userId: number;
  kind: AlertKind;
  payload: Record<string, unknown>;
  createdAt: Date;
  attempts: number;
  email: string;
  language: 'en' | 'ar';
  /** The reader's time zone (settings.ts USER_TIME_ZONE_SQL). */
  timeZone: string;
  emailAlerts: boolean;
}

const PREFS = `coalesce(s.language, 'en') AS language, coalesce(s.notifications, TRUE) AS notifications,
  coalesce(s.email_alerts, FALSE) AS "emailAlerts", ${USER_TIME_ZONE_SQL} AS "timeZone"`;
/** Users joined to the payees that pay them (the `user_payees` view). */
const USER_OF_PAYEE = `JOIN user_payees pu ON pu.payee_id = p.id
  JOIN users u ON u.id = pu.user_id
  LEFT JOIN user_settings s ON s.user_id = u.id`;

/** Inserts an alert unless its dedupe key exists; the new id, or null when it was already raised. */
export async function insertAlert(db: Queryable, alert: NewAlert): Promise<number | null> {
  const result = await db.query<{ id: bigint }>(
    `INSERT INTO alerts (user_id, kind, worker_id, dedupe_key, payload, in_app, email_status, push_status, webhook_status)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8,
             CASE WHEN EXISTS (SELECT 1 FROM user_webhooks WHERE user_id = $1) THEN 'pending' ELSE 'skipped' END)
     ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
    [
      alert.userId,
      alert.kind,
      alert.workerId,
      alert.dedupeKey,
      JSON.stringify(alert.payload),
      alert.inApp,
      alert.emailStatus,
      alert.push && alert.inApp ? 'pending' : 'skipped',
    ],
  );
  const id = result.rows[0]?.id;
  return id === undefined ? null : Number(id);
}

export async function listNotifications(
  db: Queryable,
  userId: number,
  limit: number,
): Promise<NotificationRow[]> {
  const result = await db.query<NotificationRow & { id: bigint }>(
    `SELECT id, kind, payload, created_at AS "createdAt", read_at AS "readAt"
       FROM alerts WHERE user_id = $1 AND in_app ORDER BY id DESC LIMIT $2`,
    [userId, limit],
  );
  return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** Marks one of the user's notifications read; false when it is not theirs or does not exist. */
export async function markNotificationRead(db: Queryable, userId: number, alertId: number): Promise<boolean> {
  const result = await db.query(
    'UPDATE alerts SET read_at = coalesce(read_at, now()) WHERE id = $1 AND user_id = $2 AND in_app RETURNING id',
    [alertId, userId],
  );
  return result.rowCount > 0;
}

/** Marks all of the user's unread notifications read; how many were marked. */
export async function markAllNotificationsRead(db: Queryable, userId: number): Promise<number> {
  const result = await db.query(
    'UPDATE alerts SET read_at = now() WHERE user_id = $1 AND in_app AND read_at IS NULL',
    [userId],
  );
  return result.rowCount;
}

/**
 * Claims up to `limit` pending emails for sending: unclaimed ones, or ones whose claim is older than
 * `staleBefore` (a sender that crashed or failed). Each claim counts as an attempt.
 */
export async function claimPendingEmails(
  db: Queryable,
  now: Date,
  staleBefore: Date,
  limit: number,
): Promise<PendingEmailRow[]> {
  const result = await db.query<PendingEmailRow & { id: bigint }>(
    `UPDATE alerts a SET email_claimed_at = $1, email_attempts = a.email_attempts + 1
       FROM users u LEFT JOIN user_settings s ON s.user_id = u.id
      WHERE u.id = a.user_id AND a.id IN (
        SELECT id FROM alerts WHERE email_status = 'pending' AND (email_claimed_at IS NULL OR email_claimed_at < $2)
         ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING a.id, a.user_id AS "userId", a.kind, a.payload, a.created_at AS "createdAt", a.email_attempts AS attempts,
               u.email, coalesce(s.language, 'en') AS language, coalesce(s.email_alerts, FALSE) AS "emailAlerts",
               ${USER_TIME_ZONE_SQL} AS "timeZone"`,
    [now, staleBefore, limit],
  );
  return result.rows.map((row) => ({ ...row, id: Number(row.id) })).sort((a, b) => a.id - b.id);
}

export async function markEmail(db: Queryable, alertId: number, outcome: 'sent' | 'skipped'): Promise<void> {
  await db.query(
    `UPDATE alerts SET email_status = $2, email_sent_at = CASE WHEN $2 = 'sent' THEN now() END, email_error = NULL
      WHERE id = $1 AND email_status = 'pending'`,
    [alertId, outcome],
  );
}

/** Records a failed send: it stays pending (retried once its claim is stale) unless `final`. */
export async function markEmailFailed(
  db: Queryable,
  alertId: number,
  error: string,
  final: boolean,
): Promise<void> {
  await db.query(
    `UPDATE alerts SET email_error = $2, email_status = CASE WHEN $3 THEN 'failed' ELSE email_status END
      WHERE id = $1 AND email_status = 'pending'`,
    [alertId, error.slice(0, 500), final],
  );
}

export interface WorkerAlertRow extends AlertPrefs {
  workerId: number;
  name: string;
  coin: string;
  lastShareAt: Date | null;
  status: WorkerAlertStatus;
  offlineSince: Date | null;
  backSince: Date | null;
  hashrateLowSince: Date | null;
  /** Accepted share difficulty since `recentSince`. */
  difficultyRecent: number;
  /** The worker's own threshold, else the account default; null = the pool's (config). */
  offlineMinutes: number | null;
  dropPercent: number | null;
}

/**
 * Workers of registered users worth checking: sharing since `activeSince`, or with an open
 * offline/recovery state, with their accepted difficulty since `recentSince` and their alert
 * thresholds. Workers whose owner turned their alerts off are not watched.
 */
export async function listWorkersForAlerts(
  db: Queryable,
  windows: { activeSince: Date; recentSince: Date },
): Promise<WorkerAlertRow[]> {
  const result = await db.query<WorkerAlertRow>(
    `WITH recent AS (SELECT worker_id, sum(accepted_difficulty) AS difficulty FROM share_stats WHERE bucket >= $2 GROUP BY worker_id)
     SELECT w.id AS "workerId", coalesce(w.display_name, w.name) AS name, w.coin, w.last_share_at AS "lastShareAt",
            coalesce(st.status, 'online') AS status, st.offline_since AS "offlineSince", st.back_since AS "backSince",
            st.hashrate_low_since AS "hashrateLowSince", u.id AS "userId", ${PREFS},
            coalesce(recent.difficulty, 0)::float8 AS "difficultyRecent",
            coalesce(w.alert_offline_minutes, s.alert_offline_minutes) AS "offlineMinutes",
            coalesce(w.alert_drop_percent, s.alert_drop_percent) AS "dropPercent"
       FROM workers w
       JOIN payees p ON p.id = w.payee_id
       ${USER_OF_PAYEE}
       LEFT JOIN worker_alert_state st ON st.worker_id = w.id
       LEFT JOIN recent ON recent.worker_id = w.id
      WHERE w.hidden_at IS NULL AND NOT w.alerts_off AND (w.last_share_at >= $1 OR coalesce(st.status, 'online') <> 'online')
      ORDER BY w.id`,
    [windows.activeSince, windows.recentSince],
  );
  return result.rows;
}

export interface DayShareSum {
  difficulty: number;
  firstBucket: Date;
}

/** Per worker: accepted difficulty since `since` (one pass over the window) and its first minute. */
export async function listShareSumsSince(db: Queryable, since: Date): Promise<Map<number, DayShareSum>> {
  const result = await db.query<{ workerId: number; difficulty: number; firstBucket: Date }>(
    `SELECT worker_id AS "workerId", sum(accepted_difficulty)::float8 AS difficulty, min(bucket) AS "firstBucket"
       FROM share_stats WHERE bucket >= $1 GROUP BY worker_id`,
    [since],
  );
  return new Map(
    result.rows.map((row) => [row.workerId, { difficulty: row.difficulty, firstBucket: row.firstBucket }]),
  );
}

export interface WorkerAlertState {
  workerId: number;
  status: WorkerAlertStatus;
  offlineAlertId: number | null;
  offlineSince: Date | null;
  backSince: Date | null;
  hashrateLowSince: Date | null;
}

export async function saveWorkerAlertState(db: Queryable, state: WorkerAlertState): Promise<void> {
  await db.query(
    `INSERT INTO worker_alert_state (worker_id, status, offline_alert_id, offline_since, back_since, hashrate_low_since, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, now())
     ON CONFLICT (worker_id) DO UPDATE SET status = EXCLUDED.status,
       offline_alert_id = coalesce(EXCLUDED.offline_alert_id, worker_alert_state.offline_alert_id),
       offline_since = EXCLUDED.offline_since, back_since = EXCLUDED.back_since,
       hashrate_low_since = EXCLUDED.hashrate_low_since, updated_at = now()`,
    [
      state.workerId,
      state.status,
      state.offlineAlertId,
      state.offlineSince,
      state.backSince,
      state.hashrateLowSince,
    ],
  );
}

export interface BlockAlertRow extends AlertPrefs {
  blockId: number;
  coin: string;
  height: number;
  hash: string;
  foundAt: Date;
  /** The recipient's own worker found it. */
  mine: boolean;
}

/** Blocks found since `since` (accepted by the node), each with every user whose worker on that coin existed when it
 * was found and shared in the 24 h before (or since). */
export async function listBlockAlerts(db: Queryable, since: Date): Promise<BlockAlertRow[]> {
  const result = await db.query<BlockAlertRow>(
    `SELECT DISTINCT ON (b.id, u.id) b.id AS "blockId", b.coin, b.height, b.hash, b.found_at AS "foundAt",
            u.id AS "userId", ${PREFS}, bool_or(b.finder_payee_id = p.id) OVER (PARTITION BY b.id, u.id) AS mine
       FROM blocks b
       JOIN workers w ON w.coin = b.coin AND w.first_seen_at <= b.found_at AND w.last_share_at >= b.found_at - interval '24 hours'
       JOIN payees p ON p.id = w.payee_id
       ${USER_OF_PAYEE}
      WHERE b.found_at >= $1 AND b.status IN ('pending', 'confirmed')
      ORDER BY b.id, u.id`,
    [since],
  );
  return result.rows.map((row) => ({ ...row, mine: row.mine === true }));
}

export interface PayoutAlertRow extends AlertPrefs {
  payoutId: number;
  coin: string;
  amount: bigint;
  address: string;
  txid: string | null;
  sentAt: Date;
}

/** Payouts sent (or confirmed) to registered users since `since`. */
export async function listPayoutAlerts(db: Queryable, since: Date): Promise<PayoutAlertRow[]> {
  const result = await db.query<PayoutAlertRow & { payoutId: bigint }>(
    `SELECT po.id AS "payoutId", po.coin, po.amount, po.address, po.txid, coalesce(po.sent_at, po.created_at) AS "sentAt",
            u.id AS "userId", ${PREFS}
       FROM payouts po
       JOIN payees p ON p.id = po.payee_id
       ${USER_OF_PAYEE}
      WHERE po.status IN ('sent', 'confirmed') AND coalesce(po.sent_at, po.created_at) >= $1
      ORDER BY po.id`,
    [since],
  );
  return result.rows.map((row) => ({ ...row, payoutId: Number(row.payoutId) }));
}

/** One user's alert settings, or undefined when the user does not exist. */
export async function findAlertPrefs(db: Queryable, userId: number): Promise<AlertPrefs | undefined> {
  const result = await db.query<AlertPrefs>(
    `SELECT u.id AS "userId", ${PREFS} FROM users u LEFT JOIN user_settings s ON s.user_id = u.id WHERE u.id = $1`,
    [userId],
  );
  return result.rows[0];
}

export interface PushSubscriptionRow {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Saves a browser's subscription for the user (a known endpoint moves to this user). */
export async function savePushSubscription(
  db: Queryable,
  userId: number,
  sub: PushSubscriptionRow,
): Promise<void> {
  await db.query(
    `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)
     ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth`,
    [userId, sub.endpoint, sub.p256dh, sub.auth],
  );
}

/** Removes a subscription; with a user id, only that user's. */
export async function deletePushSubscription(
  db: Queryable,
  endpoint: string,
  userId?: number,
): Promise<boolean> {
  const result = await db.query(
    'DELETE FROM push_subscriptions WHERE endpoint = $1 AND ($2::int IS NULL OR user_id = $2) RETURNING id',
    [endpoint, userId ?? null],
  );
  return result.rowCount > 0;
}

export async function listPushSubscriptions(db: Queryable, userId: number): Promise<PushSubscriptionRow[]> {
  const result = await db.query<PushSubscriptionRow>(
    'SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = $1 ORDER BY id',
    [userId],
  );
  return result.rows;
}

export interface PendingPushRow {
  id: number;
  userId: number;
  kind: AlertKind;
  payload: Record<string, unknown>;
  language: 'en' | 'ar';
  /** The reader's time zone (settings.ts USER_TIME_ZONE_SQL). */
  timeZone: string;
}

/** Takes up to `limit` alerts waiting for a push, marking them sent (at most once). */
export async function claimPendingPushes(db: Queryable, limit: number): Promise<PendingPushRow[]> {
  const result = await db.query<PendingPushRow & { id: bigint }>(
    `UPDATE alerts a SET push_status = 'sent'
       FROM users u LEFT JOIN user_settings s ON s.user_id = u.id
      WHERE u.id = a.user_id AND a.id IN (
        SELECT id FROM alerts WHERE push_status = 'pending' ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING a.id, a.user_id AS "userId", a.kind, a.payload, coalesce(s.language, 'en') AS language,
               ${USER_TIME_ZONE_SQL} AS "timeZone"`,
    [limit],
  );
  return result.rows.map((row) => ({ ...row, id: Number(row.id) })).sort((a, b) => a.id - b.id);
}
