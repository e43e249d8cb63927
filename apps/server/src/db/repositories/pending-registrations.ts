import type { Queryable } from '../types.js';
import type { NewUser } from './users.js';

export interface PendingRegistration extends NewUser {
  language: string;
}

interface RawPending {
  username: string;
  email: string;
  password_hash: string;
  wallet_address: string | null;
  preferred_coin: string;
  language: string;
}

/** Registrations waiting for their email to be confirmed; only the sha256 of the link's token is kept. */
export class PendingRegistrationsRepository {
  constructor(private readonly db: Queryable) {}

  async insert(tokenHash: string, pending: PendingRegistration, expiresAt: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO pending_registrations
         (token_hash, username, email, password_hash, wallet_address, preferred_coin, language, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        tokenHash,
        pending.username,
        pending.email,
        pending.passwordHash,
        pending.walletAddress,
        pending.preferredCoin,
        pending.language,
        expiresAt,
      ],
    );
  }

  /** Removes and answers the registration of a token still valid at `now`; once only. */
  async take(tokenHash: string, now: Date): Promise<PendingRegistration | undefined> {
    const result = await this.db.query<RawPending>(
      `DELETE FROM pending_registrations WHERE token_hash = $1 AND expires_at > $2
       RETURNING username, email, password_hash, wallet_address, preferred_coin, language`,
      [tokenHash, now],
    );
    const row = result.rows[0];
    return (
      row && {
        username: row.username,
        email: row.email,
        passwordHash: row.password_hash,
        walletAddress: row.wallet_address,
        preferredCoin: row.preferred_coin,
        language: row.language,
      }
    );
  }

  /** Drops registrations whose link expired before `now`. */
  async prune(now: Date): Promise<void> {
    await this.db.query('DELETE FROM pending_registrations WHERE expires_at <= $1', [now]);
  }
}
