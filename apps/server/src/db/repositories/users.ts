import { COINS } from '@manjam/protocol';
import type { Queryable } from '../types.js';

export interface UserRow {
  id: number;
  username: string;
  email: string;
  passwordHash: string;
  walletAddress: string | null;
  preferredCoin: string;
  totpSecret: string | null;
  totpEnabled: boolean;
  /** May use the operator console (granted from the CLI only: `manjam operator grant <email>`). */
  isOperator: boolean;
  createdAt: Date;
}

interface RawUser {
  id: number;
  username: string;
  email: string;
  password_hash: string;
  wallet_address: string | null;
  preferred_coin: string;
  totp_secret: string | null;
  totp_enabled: boolean;
  is_operator: boolean;
  created_at: Date;
}

export const USER_COLUMNS = `id, username, email, password_hash, wallet_address, preferred_coin, totp_secret, totp_enabled,
  is_operator, created_at`;

export const toUser = (r: RawUser): UserRow => ({
  id: Number(r.id),
  username: r.username,
  email: r.email,
  passwordHash: r.password_hash,
  walletAddress: r.wallet_address,
  preferredCoin: r.preferred_coin,
  totpSecret: r.totp_secret,
  totpEnabled: r.totp_enabled,
  isOperator: r.is_operator,
  createdAt: new Date(r.created_at),
});

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  walletAddress: string | null;
  preferredCoin: string;
}

/** Accounts: credentials and 2FA state (sign-in throttling is in sign-in-throttle.ts). */
export class UsersRepository {
  constructor(private readonly db: Queryable) {}

  /** Inserts an account and its settings row (in `language`); answers which of username or email is taken, if one is. */
  async insert(user: NewUser, language = 'en'): Promise<UserRow | { taken: 'username' | 'email' }> {
    const taken = await this.db.query<{ username_taken: boolean; email_taken: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM users WHERE lower(username) = lower($1)) AS username_taken,
              EXISTS (SELECT 1 FROM users WHERE lower(email) = lower($2)) AS email_taken`,
      [user.username, user.email],
    );
    const row = taken.rows[0];
    if (row?.username_taken) return { taken: 'username' };
    if (row?.email_taken) return { taken: 'email' };
    try {
      const result = await this.db.query<RawUser>(
        `WITH inserted AS (
           INSERT INTO users (username, email, password_hash, wallet_address, preferred_coin)
           VALUES ($1, $2, $3, $4, $5) RETURNING ${USER_COLUMNS}
         ), settings AS (
           INSERT INTO user_settings (user_id, language) SELECT id, $6 FROM inserted
         ), payout AS (
           -- The registration address is the payout address of the coin it was validated for,
           -- when the pool mines that coin ($7); the threshold starts at the pool's default.
           INSERT INTO user_payout_settings (user_id, coin, address)
           SELECT id, preferred_coin, wallet_address FROM inserted
            WHERE wallet_address IS NOT NULL AND preferred_coin = ANY($7::text[])
         )
         SELECT * FROM inserted`,
        [
          user.username,
          user.email,
          user.passwordHash,
          user.walletAddress,
          user.preferredCoin,
          language,
          [...COINS],
        ],
      );
      return toUser(one(result.rows));
    } catch (error) {
      // A concurrent registration won the race between the check and the insert.
      const constraint =
        (error as { constraint?: string; message?: string }).constraint ?? (error as Error).message;
      if (/users_username_key/.test(constraint)) return { taken: 'username' };
      if (/users_email_key/.test(constraint)) return { taken: 'email' };
      throw error;
    }
  }

  async findById(id: number): Promise<UserRow | undefined> {
    const result = await this.db.query<RawUser>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
    return result.rows[0] && toUser(result.rows[0]);
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const result = await this.db.query<RawUser>(
      `SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = lower($1)`,
      [email],
    );
    return result.rows[0] && toUser(result.rows[0]);
  }

  async emailInUse(email: string, exceptUserId: number): Promise<boolean> {
    const result = await this.db.query('SELECT 1 FROM users WHERE lower(email) = lower($1) AND id <> $2', [
      email,
      exceptUserId,
    ]);
    return result.rows.length > 0;
  }

  /** Whether an account already has this username (usernames are public: they are Stratum logins). */
  async usernameTaken(username: string): Promise<boolean> {
    const result = await this.db.query('SELECT 1 FROM users WHERE lower(username) = lower($1)', [username]);
    return result.rows.length > 0;
  }

  async setTotp(id: number, encryptedSecret: string | null, enabled: boolean): Promise<void> {
    await this.db.query('UPDATE users SET totp_secret = $2, totp_enabled = $3 WHERE id = $1', [
      id,
      encryptedSecret,
      enabled,
    ]);
  }

  /**
   * Records `step` as the last TOTP time step accepted; false when that step or a later one was
   * already used (a replayed code, or two sign-ins racing with the same code).
   */
  async useTotpStep(id: number, step: number): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE users SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id',
      [id, step],
    );
    return result.rowCount > 0;
  }

  /** Grants or revokes the operator role by email; the account's id, or undefined when no account has it. */
  async setOperator(email: string, isOperator: boolean): Promise<number | undefined> {
    const result = await this.db.query<{ id: number }>(
      'UPDATE users SET is_operator = $2 WHERE lower(email) = lower($1) RETURNING id',
      [email, isOperator],
    );
    const row = result.rows[0];
    return row && Number(row.id);
  }

  async setPasswordHash(id: number, passwordHash: string): Promise<void> {
    await this.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
  }

  /** Answers false when another account already uses the email. */
  async setEmail(id: number, email: string): Promise<boolean> {
    try {
      await this.db.query('UPDATE users SET email = $2 WHERE id = $1', [id, email]);
      return true;
    } catch (error) {
      if (/users_email_key/.test((error as { constraint?: string }).constraint ?? (error as Error).message))
        return false;
      throw error;
    }
  }
}

function one<T>(rows: T[]): T {
  const row = rows[0];
  if (row === undefined) throw new Error('expected one row');
  return row;
}
