import type { OperatorAlertKind } from '@manjam/contract/tables';
import type { Queryable } from '../types.js';

// The kinds are the contract's list: the console's API and screens name the same ones.
export { OPERATOR_ALERT_KINDS, type OperatorAlertKind } from '@manjam/contract/tables';

export interface OperatorAlert {
  key: string;
  kind: OperatorAlertKind;
  coin: string | null;
  message: string;
  raisedAt: Date;
}

/** Open operator alerts: one row per key until its condition passes (see migration 0510). */
export class OperatorAlertsRepository {
  constructor(private readonly db: Queryable) {}

  /** Opens an alert; false when one with this key is already open. */
  async raise(alert: {
    key: string;
    kind: OperatorAlertKind;
    coin: string | null;
    message: string;
  }): Promise<boolean> {
    const result = await this.db.query<{ id: string }>(
      `INSERT INTO operator_alerts (key, kind, coin, message) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key) WHERE cleared_at IS NULL DO NOTHING RETURNING id`,
      [alert.key, alert.kind, alert.coin, alert.message],
    );
    return result.rows.length > 0;
  }

  /** Clears the open alerts with these keys; returns the keys it cleared. */
  async clear(keys: readonly string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    const result = await this.db.query<{ key: string }>(
      'UPDATE operator_alerts SET cleared_at = now() WHERE key = ANY($1::text[]) AND cleared_at IS NULL RETURNING key',
      [keys],
    );
    return result.rows.map((r) => r.key);
  }

  /** Is an alert with this key open? */
  async isOpen(key: string): Promise<boolean> {
    const result = await this.db.query(
      'SELECT 1 FROM operator_alerts WHERE key = $1 AND cleared_at IS NULL',
      [key],
    );
    return result.rows.length > 0;
  }

  async open(): Promise<OperatorAlert[]> {
    const result = await this.db.query<{
      key: string;
      kind: OperatorAlertKind;
      coin: string | null;
      message: string;
      raised_at: Date;
    }>(
      'SELECT key, kind, coin, message, raised_at FROM operator_alerts WHERE cleared_at IS NULL ORDER BY raised_at, id',
    );
    return result.rows.map((r) => ({
      key: r.key,
      kind: r.kind,
      coin: r.coin,
      message: r.message,
      raisedAt: new Date(r.raised_at),
    }));
  }
}
