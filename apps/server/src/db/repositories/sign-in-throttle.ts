import type { Queryable } from '../types.js';

/** The rule one throttle key is held to (services/auth/throttle.ts builds it from config.auth.throttle). */
export interface ThrottleRule {
  /** Failures allowed before the backoff starts. */
  limit: number;
  backoffMs: number;
  maxBackoffMs: number;
  /** Failures older than this (no failure since) are forgotten. */
  forgetMs: number;
}

/** A claimed attempt (the key's failures with it), or a refusal while the key is blocked (until when). */
export type ThrottleClaim = { claimed: true; failures: number } | { claimed: false; blockedUntil: Date };

/** The failure count after one more (1 again when the last failure is older than forgetMs). */
const NEXT = `(CASE WHEN t.last_failure_at < $3::timestamptz - make_interval(secs => $6::float8 / 1000)
  THEN 1 ELSE t.failures + 1 END)`;

/** Failed sign-in checks per hashed key (a source address, a known device, an account email). */
export class SignInThrottleRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Claims one check for `key` before it runs, in one statement: refused while the key is
   * blocked; otherwise the attempt counts as a failure at once (so parallel guesses queue on the
   * row and none gets past the limit), and the failure that reaches the limit and each one after
   * it block the key for backoffMs * 2^(failures - limit), at most maxBackoffMs. A check that
   * then succeeds gives its failure back (release).
   */
  async claim(key: string, rule: ThrottleRule, now: Date): Promise<ThrottleClaim> {
    const result = await this.db.query<{
      claimed: boolean;
      failures: number | null;
      blocked_until: Date | null;
    }>(
      `WITH claimed AS (
         INSERT INTO sign_in_throttle AS t (key, failures, blocked_until, last_failure_at)
         VALUES ($1, 1, CASE WHEN 1 >= $2 THEN $3::timestamptz + make_interval(secs => LEAST($5::float8, $4::float8) / 1000) END, $3)
         ON CONFLICT (key) DO UPDATE SET
           failures = ${NEXT},
           blocked_until = CASE WHEN ${NEXT} >= $2
             THEN $3::timestamptz + make_interval(secs => LEAST($5::float8, $4::float8 * 2 ^ (${NEXT} - $2)) / 1000)
             END,
           last_failure_at = $3
         WHERE t.blocked_until IS NULL OR t.blocked_until <= $3
         RETURNING t.failures
       )
       SELECT EXISTS (SELECT 1 FROM claimed) AS claimed, (SELECT failures FROM claimed) AS failures,
              (SELECT blocked_until FROM sign_in_throttle WHERE key = $1) AS blocked_until`,
      [key, rule.limit, now, rule.backoffMs, rule.maxBackoffMs, rule.forgetMs],
    );
    const row = result.rows[0];
    if (!row || row.claimed) return { claimed: true, failures: Number(row?.failures ?? 1) };
    // Refused: the block in force. A block set by a concurrent claim after this statement's
    // snapshot is not visible here; it is still a refusal, for at least one backoff step.
    const blockedUntil = row.blocked_until === null ? null : new Date(row.blocked_until);
    return {
      claimed: false,
      blockedUntil:
        blockedUntil && blockedUntil > now ? blockedUntil : new Date(now.getTime() + rule.backoffMs),
    };
  }

  /** When the key's block ends, if one is in force at `now` (a look that claims nothing). */
  async blockedUntil(key: string, now: Date): Promise<Date | null> {
    const result = await this.db.query<{ blocked_until: Date }>(
      'SELECT blocked_until FROM sign_in_throttle WHERE key = $1 AND blocked_until > $2',
      [key, now],
    );
    const row = result.rows[0];
    return row ? new Date(row.blocked_until) : null;
  }

  /** Gives back the failure a successful check claimed; a block only that claim set is lifted. */
  async release(key: string, limit: number): Promise<void> {
    await this.db.query(
      `UPDATE sign_in_throttle
          SET failures = failures - 1,
              blocked_until = CASE WHEN failures - 1 >= $2 THEN blocked_until END
        WHERE key = $1 AND failures > 0`,
      [key, limit],
    );
  }

  /** Forgets a key (a known device or a signed-in session passed its check). */
  async clear(key: string): Promise<void> {
    await this.db.query('DELETE FROM sign_in_throttle WHERE key = $1', [key]);
  }

  /** Drops keys with no failure since `before` and no block in force at `now`. */
  async prune(before: Date, now: Date): Promise<number> {
    const result = await this.db.query(
      `DELETE FROM sign_in_throttle
        WHERE last_failure_at < $1 AND (blocked_until IS NULL OR blocked_until <= $2)`,
      [before, now],
    );
    return result.rowCount;
  }
}
