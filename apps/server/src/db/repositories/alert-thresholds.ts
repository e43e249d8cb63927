import type { Queryable } from '../types.js';

// Alert thresholds a miner chose: the account default (user_settings) and each worker's
// own (workers). NULL = inherit (worker -> account -> the pool's config). Parameterized SQL only.

export interface Thresholds {
  offlineMinutes: number | null;
  dropPercent: number | null;
}

export interface WorkerThresholds extends Thresholds {
  off: boolean;
  /** The account default the worker falls back to. */
  account: Thresholds;
}

export async function findAccountThresholds(db: Queryable, userId: number): Promise<Thresholds> {
  const result = await db.query<Thresholds>(
    `SELECT alert_offline_minutes AS "offlineMinutes", alert_drop_percent AS "dropPercent"
       FROM user_settings WHERE user_id = $1`,
    [userId],
  );
  return result.rows[0] ?? { offlineMinutes: null, dropPercent: null };
}

export async function saveAccountThresholds(
  db: Queryable,
  userId: number,
  values: Thresholds,
): Promise<void> {
  await db.query(
    `INSERT INTO user_settings (user_id, alert_offline_minutes, alert_drop_percent) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET alert_offline_minutes = EXCLUDED.alert_offline_minutes,
       alert_drop_percent = EXCLUDED.alert_drop_percent, updated_at = now()`,
    [userId, values.offlineMinutes, values.dropPercent],
  );
}

const OWNED = `FROM payees p JOIN user_payees pu ON pu.payee_id = p.id
  WHERE w.id = $1 AND w.payee_id = p.id AND pu.user_id = $2`;

/** One of the user's workers' thresholds, or undefined when the worker is not theirs. */
export async function findWorkerThresholds(
  db: Queryable,
  userId: number,
  workerId: number,
): Promise<WorkerThresholds | undefined> {
  const result = await db.query<Thresholds & { off: boolean }>(
    `SELECT w.alert_offline_minutes AS "offlineMinutes", w.alert_drop_percent AS "dropPercent", w.alerts_off AS off
       FROM workers w, payees p JOIN user_payees pu ON pu.payee_id = p.id
      WHERE w.id = $1 AND w.payee_id = p.id AND pu.user_id = $2`,
    [workerId, userId],
  );
  const row = result.rows[0];
  return row && { ...row, account: await findAccountThresholds(db, userId) };
}

/** Sets one of the user's workers' thresholds; false when the worker is not theirs. */
export async function saveWorkerThresholds(
  db: Queryable,
  userId: number,
  workerId: number,
  values: Thresholds & { off: boolean },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE workers w SET alert_offline_minutes = $3, alert_drop_percent = $4, alerts_off = $5 ${OWNED} RETURNING w.id`,
    [workerId, userId, values.offlineMinutes, values.dropPercent, values.off],
  );
  return result.rowCount > 0;
}
