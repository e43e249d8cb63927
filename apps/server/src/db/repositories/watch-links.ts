import type { Queryable } from '../types.js';

/** A public read-only watcher link of an account (migration 0680). */
export interface WatchLinkRow {
  id: number;
  userId: number;
  label: string;
  /** The link's token, encrypted with the server's secret box (the owner can copy it again). */
  tokenSealed: string;
  coins: string[];
  pages: string[];
  createdAt: Date;
  expiresAt: Date | null;
  lastViewedAt: Date | null;
  revokedAt: Date | null;
}

interface RawWatchLink {
  id: number;
  user_id: number;
  label: string;
  token_sealed: string;
  coins: string;
  pages: string;
  created_at: Date;
  expires_at: Date | null;
  last_viewed_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS =
  'id, user_id, label, token_sealed, coins, pages, created_at, expires_at, last_viewed_at, revoked_at';
const date = (value: Date | null) => (value === null ? null : new Date(value));
const toRow = (r: RawWatchLink): WatchLinkRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  label: r.label,
  tokenSealed: r.token_sealed,
  coins: r.coins.split(','),
  pages: r.pages.split(','),
  createdAt: new Date(r.created_at),
  expiresAt: date(r.expires_at),
  lastViewedAt: date(r.last_viewed_at),
  revokedAt: date(r.revoked_at),
});

export interface NewWatchLink {
  userId: number;
  label: string;
  tokenHash: string;
  tokenSealed: string;
  coins: readonly string[];
  pages: readonly string[];
  createdAt: Date;
  expiresAt: Date | null;
}

/** Watcher links: create, list, find a live one by hash, mark viewed, revoke. */
export class WatchLinksRepository {
  constructor(private readonly db: Queryable) {}

  async create(link: NewWatchLink): Promise<WatchLinkRow> {
    const result = await this.db.query<RawWatchLink>(
      `INSERT INTO watch_links (user_id, label, token_hash, token_sealed, coins, pages, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [
        link.userId,
        link.label,
        link.tokenHash,
        link.tokenSealed,
        link.coins.join(','),
        link.pages.join(','),
        link.createdAt,
        link.expiresAt,
      ],
    );
    const row = result.rows[0];
    if (!row) throw new Error('watch link insert returned nothing');
    return toRow(row);
  }

  /** The account's links, newest first (revoked ones too, marked). */
  async list(userId: number): Promise<WatchLinkRow[]> {
    const result = await this.db.query<RawWatchLink>(
      `SELECT ${COLUMNS} FROM watch_links WHERE user_id = $1 ORDER BY created_at DESC, id DESC`,
      [userId],
    );
    return result.rows.map(toRow);
  }

  /** Live links of an account (not revoked, not expired at `now`). */
  async countLive(userId: number, now: Date): Promise<number> {
    const result = await this.db.query<{ n: number | string }>(
      `SELECT count(*) AS n FROM watch_links
        WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
      [userId, now],
    );
    return Number(result.rows[0]?.n ?? 0);
  }

  /** The live link with this hash (not revoked, not expired at `now`). */
  async findLive(tokenHash: string, now: Date): Promise<WatchLinkRow | undefined> {
    const result = await this.db.query<RawWatchLink>(
      `SELECT ${COLUMNS} FROM watch_links
        WHERE token_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
      [tokenHash, now],
    );
    const row = result.rows[0];
    return row && toRow(row);
  }

  async touch(id: number, now: Date): Promise<void> {
    await this.db.query('UPDATE watch_links SET last_viewed_at = $2 WHERE id = $1', [id, now]);
  }

  /** Revokes one of the account's links; false when it names none of theirs (or was revoked). */
  async revoke(userId: number, id: number, now: Date): Promise<boolean> {
    const result = await this.db.query(
      'UPDATE watch_links SET revoked_at = $3 WHERE id = $2 AND user_id = $1 AND revoked_at IS NULL',
      [userId, id, now],
    );
    return result.rowCount > 0;
  }
}
