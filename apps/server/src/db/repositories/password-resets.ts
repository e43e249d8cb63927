import type { Queryable } from '../types.js';

/** Password reset links waiting to be used; only the sha256 of a link's token is kept. */
export class PasswordResetsRepository {
  constructor(private readonly db: Queryable) {}

  async insert(tokenHash: string, userId: number, expiresAt: Date): Promise<void> {
    await this.db.query('INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [
      tokenHash,
      userId,
      expiresAt,
    ]);
  }

  /**
   * The account of a link still valid at `now`, once: every link of that account is removed with
   * it (the newest password makes older links useless).
   */
  async take(tokenHash: string, now: Date): Promise<number | undefined> {
    const result = await this.db.query<{ user_id: number }>(
      `DELETE FROM password_resets WHERE user_id IN (
         SELECT user_id FROM password_resets WHERE token_hash = $1 AND expires_at > $2)
       RETURNING user_id`,
      [tokenHash, now],
    );
    return result.rows[0]?.user_id;
  }

  /** Drops links that expired before `now`. */
  async prune(now: Date): Promise<void> {
    await this.db.query('DELETE FROM password_resets WHERE expires_at <= $1', [now]);
  }
}
