import type { Queryable } from '../types.js';

/**
 * Session-level PostgreSQL advisory locks that make one process of a kind the leader (the
 * accounting loop runs once per deployment). The key is the lock's name within the current
 * schema, so pools (and test schemas) sharing one database do not contend. Run these on a
 * dedicated connection: the lock lives as long as that session.
 */
export class LeaderLocksRepository {
  constructor(private readonly session: Queryable) {}

  /** True when this session now holds the lock (or already held it). Never waits. */
  async tryAcquire(name: string): Promise<boolean> {
    const result = await this.session.query<{ acquired: boolean }>(
      `SELECT pg_try_advisory_lock(hashtext(current_schema() || ':' || $1)) AS acquired`,
      [name],
    );
    return result.rows[0]?.acquired === true;
  }

  /** True when this session still holds the lock (a cheap check that the session is alive). */
  async holds(name: string): Promise<boolean> {
    const result = await this.session.query<{ held: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted
         AND objid = (hashtext(current_schema() || ':' || $1)::bigint & 4294967295)::oid) AS held`,
      [name],
    );
    return result.rows[0]?.held === true;
  }

  async release(name: string): Promise<void> {
    await this.session.query(`SELECT pg_advisory_unlock(hashtext(current_schema() || ':' || $1))`, [name]);
  }
}
