import type { OperatorAction, OperatorAlertKind, PayoutFailure } from '@manjam/contract';
import type { Queryable } from '../types.js';
import type { PayoutRunStatus } from './payouts.js';

/** An operator alert row, open (clearedAt null) or past. */
export interface AlertRow {
  id: bigint;
  key: string;
  kind: OperatorAlertKind;
  coin: string | null;
  message: string;
  raisedAt: Date;
  clearedAt: Date | null;
}

/** A payout run with its payouts counted and summed. */
export interface RunSummaryRow {
  id: bigint;
  coin: string;
  status: PayoutRunStatus;
  txid: string | null;
  payouts: number;
  total: bigint;
  failure: PayoutFailure | null;
  error: string | null;
  createdAt: Date;
}

interface RawAlert {
  id: bigint;
  key: string;
  kind: OperatorAlertKind;
  coin: string | null;
  message: string;
  raised_at: Date;
  cleared_at: Date | null;
}

const ALERT_COLUMNS = 'id, key, kind, coin, message, raised_at, cleared_at';

const toAlert = (r: RawAlert): AlertRow => ({
  id: BigInt(r.id),
  key: r.key,
  kind: r.kind,
  coin: r.coin,
  message: r.message,
  raisedAt: new Date(r.raised_at),
  clearedAt: r.cleared_at === null ? null : new Date(r.cleared_at),
});

/** One line of the console's audit log. */
export interface ActionRow {
  id: bigint;
  userId: number | null;
  email: string;
  ip: string;
  action: OperatorAction;
  target: string;
  at: Date;
}

/** What the operator console reads beyond the public lists: alerts with their history, payout runs. */
export class OperatorConsoleRepository {
  constructor(private readonly db: Queryable) {}

  async openAlerts(): Promise<AlertRow[]> {
    const result = await this.db.query<RawAlert>(
      `SELECT ${ALERT_COLUMNS} FROM operator_alerts WHERE cleared_at IS NULL ORDER BY raised_at, id`,
    );
    return result.rows.map(toAlert);
  }

  /** Cleared alerts, the latest cleared first. */
  async pastAlerts(limit: number, offset: number): Promise<{ rows: AlertRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db.query<RawAlert>(
        `SELECT ${ALERT_COLUMNS} FROM operator_alerts WHERE cleared_at IS NOT NULL
          ORDER BY cleared_at DESC, id DESC LIMIT $1 OFFSET $2`,
        [limit, offset],
      ),
      this.db.query<{ n: bigint }>('SELECT COUNT(*) AS n FROM operator_alerts WHERE cleared_at IS NOT NULL'),
    ]);
    return { rows: rows.rows.map(toAlert), total: Number(count.rows[0]?.n ?? 0) };
  }

  /** Closes an open alert by id; the closed row, or undefined when no open alert has that id. */
  async closeAlert(id: bigint): Promise<AlertRow | undefined> {
    const result = await this.db.query<RawAlert>(
      `UPDATE operator_alerts SET cleared_at = now() WHERE id = $1 AND cleared_at IS NULL
       RETURNING ${ALERT_COLUMNS}`,
      [id],
    );
    const row = result.rows[0];
    return row && toAlert(row);
  }

  /** Payout runs, the newest first, with their payouts counted and summed. */
  async payoutRuns(limit: number, offset: number): Promise<{ rows: RunSummaryRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db.query<{
        id: bigint;
        coin: string;
        status: PayoutRunStatus;
        txid: string | null;
        payouts: bigint;
        total: bigint | string | null;
        failure: PayoutFailure | null;
        error: string | null;
        created_at: Date;
      }>(
        `SELECT r.id, r.coin, r.status, r.txid, r.failure, r.error, r.created_at,
                COUNT(o.id) AS payouts, COALESCE(SUM(o.amount), 0) AS total
           FROM payout_runs r LEFT JOIN payouts o ON o.run_id = r.id
          GROUP BY r.id ORDER BY r.id DESC LIMIT $1 OFFSET $2`,
        [limit, offset],
      ),
      this.db.query<{ n: bigint }>('SELECT COUNT(*) AS n FROM payout_runs'),
    ]);
    return {
      total: Number(count.rows[0]?.n ?? 0),
      rows: rows.rows.map((r) => ({
        id: BigInt(r.id),
        coin: r.coin,
        status: r.status,
        txid: r.txid,
        payouts: Number(r.payouts),
        total: BigInt(r.total ?? 0),
        failure: r.failure,
        error: r.error,
        createdAt: new Date(r.created_at),
      })),
    };
  }

  /** Adds a line to the audit log. */
  async recordAction(entry: Omit<ActionRow, 'id' | 'at'>): Promise<void> {
    await this.db.query(
      'INSERT INTO operator_actions (user_id, email, ip, action, target) VALUES ($1, $2, $3, $4, $5)',
      [entry.userId, entry.email, entry.ip, entry.action, entry.target],
    );
  }

  /** The audit log, the latest action first. */
  async actions(limit: number, offset: number): Promise<{ rows: ActionRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db.query<{
        id: bigint;
        user_id: number | null;
        email: string;
        ip: string;
        action: OperatorAction;
        target: string;
        at: Date;
      }>(
        `SELECT id, user_id, email, ip, action, target, at FROM operator_actions
          ORDER BY at DESC, id DESC LIMIT $1 OFFSET $2`,
        [limit, offset],
      ),
      this.db.query<{ n: bigint }>('SELECT COUNT(*) AS n FROM operator_actions'),
    ]);
    return {
      total: Number(count.rows[0]?.n ?? 0),
      rows: rows.rows.map((r) => ({
        id: BigInt(r.id),
        userId: r.user_id === null ? null : Number(r.user_id),
        email: r.email,
        ip: r.ip,
        action: r.action,
        target: r.target,
        at: new Date(r.at),
      })),
    };
  }
}
