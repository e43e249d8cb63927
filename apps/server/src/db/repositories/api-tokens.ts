import type { Queryable } from '../types.js';
import { toUser, USER_COLUMNS, type UserRow } from './users.js';

/** A read-only API token of an account (migration 0680); the token itself is never stored. */
export interface ApiTokenRow {
  id: number;
  userId: number;
  name: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

interface RawApiToken {
  id: number;
  user_id: number;
  name: string;
  prefix: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, user_id, name, prefix, created_at, expires_at, last_used_at, revoked_at';
const date = (value: Date | null) => (value === null ? null : new Date(value));
const toRow = (r: RawApiToken): ApiTokenRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  name: r.name,
  prefix: r.prefix,
  createdAt: new Date(r.created_at),
  expiresAt: date(r.expires_at),
  lastUsedAt: date(r.last_used_at),
  revokedAt: date(r.revoked_at),
});

export interface NewApiToken {
  userId: number;
  name: string;
  prefix: string;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date | null;
}

/** Read-only API tokens: create, list, find a live one by hash, mark used, revoke. */
export class ApiTokensRepository {
  constructor(private readonly db: Queryable) {}

  async create(token: NewApiToken): Promise<ApiTokenRow> {
    const result = await this.db.query<RawApiToken>(
      `INSERT INTO api_tokens (user_id, name, prefix, token_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [token.userId, token.name, token.prefix, token.tokenHash, token.createdAt, token.expiresAt],
    );
    const row = result.rows[0];
    if (!row) throw new Error('api token insert returned nothing');
    return toRow(row);
  }

  /** The account's tokens, newest first (revoked ones too, marked). */
  async list(userId: number): Promise<ApiTokenRow[]> {
    const result = await this.db.query<RawApiToken>(
      `SELECT ${COLUMNS} FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC, id DESC`,
      [userId],
    );
    return result.rows.map(toRow);
  }

  /** Live tokens of an account (not revoked, not expired at `now`). */
  async countLive(userId: number, now: Date): Promise<number> {
    const result = await this.db.query<{ n: number | string }>(
      `SELECT count(*) AS n FROM api_tokens
        WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
      [userId, now],
    );
    return Number(result.rows[0]?.n ?? 0);
  }

  /** The live token with this hash (not revoked, not expired at `now`) and its account, in one read. */
  async findLive(tokenHash: string, now: Date): Promise<{ row: ApiTokenRow; user: UserRow } | undefined> {
    const users = USER_COLUMNS.split(',')
      .map((c) => `u.${c.trim()}`)
      .join(', ');
    const result = await this.db.query<Parameters<typeof toUser>[0] & { token_row: RawApiToken }>(
      `SELECT row_to_json(t.*) AS token_row, ${users}
         FROM api_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > $2)`,
      [tokenHash, now],
    );
    const found = result.rows[0];
    return found && { row: toRow(found.token_row), user: toUser(found) };
  }

  async touch(id: number, now: Date): Promise<void> {
    await this.db.query('UPDATE api_tokens SET last_used_at = $2 WHERE id = $1', [id, now]);
  }

  /** Revokes one of the account's tokens; false when it names none of theirs (or was revoked). */
  async revoke(userId: number, id: number, now: Date): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE api_tokens SET revoked_at = $3 WHERE id = $2 AND user_id = $1 AND revoked_at IS NULL',
      [userId, id, now],
    );
    return result.rowCount > 0;
  }
}
