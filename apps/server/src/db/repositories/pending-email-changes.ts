import type { Queryable } from '../types.js';

export interface PendingEmailChange {
  userId: number;
  newEmail: string;
}

/** Email changes waiting for the new address to be confirmed; only the sha256 of the link's token is kept. */
export class PendingEmailChangesRepository {
  constructor(private readonly db: Queryable) {}

  /** Stores a change; an earlier unconfirmed change of the same account is replaced (its link stops working). */
  async insert(tokenHash: string, change: PendingEmailChange, expiresAt: Date): Promise<void> {
    await this.db.query('DELETE FROM pending_email_changes WHERE user_id = $1', [change.userId]);
    await this.db.query(
      'INSERT INTO pending_email_changes (token_hash, user_id, new_email, expires_at) VALUES ($1, $2, $3, $4)',
      [tokenHash, change.userId, change.newEmail, expiresAt],
    );
  }

  /** Removes and answers the change of a token still valid at `now`; once only. */
  async take(tokenHash: string, now: Date): Promise<PendingEmailChange | undefined> {
    const result = await this.db.query<{ user_id: number; new_email: string }>(
      `DELETE FROM pending_email_changes WHERE token_hash = $1 AND expires_at > $2
       RETURNING user_id, new_email`,
      [tokenHash, now],
    );
    const row = result.rows[0];
    return row && { userId: row.user_id, newEmail: row.new_email };
  }

  /** Drops changes whose link expired before `now`. */
  async prune(now: Date): Promise<void> {
    await this.db.query('DELETE FROM pending_email_changes WHERE expires_at <= $1', [now]);
  }
}
