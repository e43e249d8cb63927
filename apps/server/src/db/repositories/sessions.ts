import type { Queryable } from '../types.js';
import { toUser, USER_COLUMNS, type UserRow } from './users.js';

export interface NewSession {
  userId: number;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
  /** The session was opened with the password and a TOTP code (migration 0670). */
  totpPassed: boolean;
}

/** Bearer sessions: only the sha256 of a token is stored. */
export class SessionsRepository {
  constructor(private readonly db: Queryable) {}

  async create(session: NewSession): Promise<number> {
    const result = await this.db.query<{ id: bigint }>(
      `INSERT INTO sessions (user_id, token_hash, created_at, last_seen_at, expires_at, ip, user_agent, totp_passed)
       VALUES ($1, $2, $3, $3, $4, $5, $6, $7) RETURNING id`,
      [
        session.userId,
        session.tokenHash,
        session.createdAt,
        session.expiresAt,
        session.ip,
        session.userAgent,
        session.totpPassed,
      ],
    );
    const row = result.rows[0];
    if (!row) throw new Error('session insert returned nothing');
    return Number(row.id);
  }

  /** The user of a live session (not revoked, not expired at `now`). */
  async findUser(
    tokenHash: string,
    now: Date,
  ): Promise<
    | { sessionId: number; user: UserRow; lastSeenAt: Date; autoLogout: boolean; totpPassed: boolean }
    | undefined
  > {
    const columns = USER_COLUMNS.split(',')
      .map((c) => `u.${c.trim()}`)
      .join(', ');
    const result = await this.db.query<
      Parameters<typeof toUser>[0] & {
        session_id: bigint;
        last_seen_at: Date;
        auto_logout: boolean | null;
        totp_passed: boolean;
      }
    >(
      `SELECT s.id AS session_id, s.last_seen_at, st.auto_logout, s.totp_passed, ${columns}
         FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN user_settings st ON st.user_id = u.id
        WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2`,
      [tokenHash, now],
    );
    const row = result.rows[0];
    return (
      row && {
        sessionId: Number(row.session_id),
        user: toUser(row),
        lastSeenAt: new Date(row.last_seen_at),
        autoLogout: row.auto_logout ?? false,
        totpPassed: row.totp_passed,
      }
    );
  }

  async touch(sessionId: number, now: Date): Promise<void> {
    await this.db.query('UPDATE sessions SET last_seen_at = $2 WHERE id = $1', [sessionId, now]);
  }

  async revoke(tokenHash: string, now: Date): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL',
      [tokenHash, now],
    );
    return result.rowCount > 0;
  }

  /** Revokes every session of a user (after a password reset by email). */
  async revokeAll(userId: number, now: Date): Promise<void> {
    await this.db.query('UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [
      userId,
      now,
    ]);
  }

  /** Revokes every session of a user except `keepSessionId` (after a password change). */
  async revokeOthers(userId: number, keepSessionId: number, now: Date): Promise<void> {
    await this.db.query(
      'UPDATE sessions SET revoked_at = $3 WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL',
      [userId, keepSessionId, now],
    );
  }
}
