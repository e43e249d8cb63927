import { portRowOfPoolCoin, type DeviceType } from '@manjam/contract/tables';
import { isCoin } from '@manjam/protocol';
import type { Queryable } from '../types.js';

export interface WorkerKey {
  payeeId: number;
  coin: string;
  name: string;
  algorithm: string;
}

export interface WorkerCounters {
  workerId: number;
  accepted: number;
  /** Every rejected share, stale ones included. */
  rejected: number;
  stale: number;
  /** Time of the last accepted share in this batch, if any. */
  lastShareAt: Date | null;
  bestDifficulty: number;
}

export interface WorkerRow {
  id: number;
  payeeId: number;
  coin: string;
  name: string;
  displayName: string | null;
  algorithm: string;
  firstSeenAt: Date;
  lastShareAt: Date | null;
  acceptedShares: bigint;
  rejectedShares: bigint;
  staleShares: bigint;
  bestDifficulty: number;
}

interface RawWorker {
  id: number;
  payee_id: number;
  coin: string;
  name: string;
  display_name: string | null;
  algorithm: string;
  first_seen_at: Date;
  last_share_at: Date | null;
  accepted_shares: bigint;
  rejected_shares: bigint;
  stale_shares: bigint;
  best_difficulty: number;
}

const WORKER_COLUMNS = `id, payee_id, coin, name, display_name, algorithm, first_seen_at, last_share_at,
  accepted_shares, rejected_shares, stale_shares, best_difficulty`;

const toWorker = (r: RawWorker): WorkerRow => ({
  id: r.id,
  payeeId: r.payee_id,
  coin: r.coin,
  name: r.name,
  displayName: r.display_name,
  algorithm: r.algorithm,
  firstSeenAt: new Date(r.first_seen_at),
  lastShareAt: r.last_share_at === null ? null : new Date(r.last_share_at),
  acceptedShares: BigInt(r.accepted_shares),
  rejectedShares: BigInt(r.rejected_shares),
  staleShares: BigInt(r.stale_shares),
  bestDifficulty: Number(r.best_difficulty),
});

/**
 * A new worker's device type until its owner sets one: the hardware its coin's algorithm is mined
 * with (PORT_TABLE), so a RandomX worker is a CPU, not an ASIC.
 */
export function hardwareOf(coin: string): DeviceType {
  return isCoin(coin) ? portRowOfPoolCoin(coin).hardware : 'asic';
}

/** A worker looked up (never created) for its reject counts: its payee by account or by wallet. */
export interface WorkerLookup {
  /** The caller's key for the answer (shares/types.ts MinerRef.workerKey). */
  key: string;
  coin: string;
  userId: number | null;
  address: string | null;
  name: string;
}

/**
 * Stratum workers: "<account or wallet>.<name>" on one coin, created with their first accepted
 * share and never from a login or a rejected share (anyone can log in as "bob.<anything>").
 */
export class WorkersRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Creates the workers that do not exist yet (a hidden one reappears) and answers the id of
   * each, keyed `${payeeId}:${name}`. Keys must be distinct. Only for workers with an accepted
   * share in hand (the share writer): this is what lets a worker into an account.
   */
  async ensure(keys: readonly WorkerKey[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    if (keys.length === 0) return ids;
    const result = await this.db.query<{ id: number; payee_id: number; name: string }>(
      `INSERT INTO workers (payee_id, coin, name, algorithm, type)
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[])
       ON CONFLICT (payee_id, name) DO UPDATE SET hidden_at = NULL
       RETURNING id, payee_id, name`,
      [
        keys.map((k) => k.payeeId),
        keys.map((k) => k.coin),
        keys.map((k) => k.name),
        keys.map((k) => k.algorithm),
        keys.map((k) => hardwareOf(k.coin)),
      ],
    );
    for (const row of result.rows) ids.set(`${row.payee_id}:${row.name}`, row.id);
    return ids;
  }

  /**
   * The ids of the workers that exist (hidden or not), by the caller's key; creates nothing.
   * Rejected shares are counted only against a worker an accepted share has created.
   */
  async findIds(lookups: readonly WorkerLookup[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    if (lookups.length === 0) return ids;
    const result = await this.db.query<{ id: number; key: string }>(
      `SELECT w.id, k.key
         FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[])
           AS k(key, coin, user_id, address, name)
         JOIN payees p ON p.coin = k.coin AND (
           (p.kind = 'user' AND p.user_id = k.user_id) OR (p.kind = 'wallet' AND p.address = k.address))
         JOIN workers w ON w.payee_id = p.id AND w.name = k.name`,
      [
        lookups.map((l) => l.key),
        lookups.map((l) => l.coin),
        lookups.map((l) => l.userId),
        lookups.map((l) => l.address),
        lookups.map((l) => l.name),
      ],
    );
    for (const row of result.rows) ids.set(row.key, row.id);
    return ids;
  }

  /**
   * Adds share counts to each worker; keeps the latest share time and the best share. A hidden
   * worker reappears only with an accepted share (as in `ensure`, which a writer calls only for
   * workers it has no id for yet); rejected ones leave it deleted.
   */
  async addCounters(rows: readonly WorkerCounters[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.query(
      `UPDATE workers w SET
         hidden_at = CASE WHEN u.accepted > 0 THEN NULL ELSE w.hidden_at END,
         accepted_shares = w.accepted_shares + u.accepted,
         rejected_shares = w.rejected_shares + u.rejected,
         stale_shares = w.stale_shares + u.stale,
         last_share_at = GREATEST(w.last_share_at, u.last_share_at),
         best_difficulty = GREATEST(w.best_difficulty, u.best)
       FROM unnest($1::int[], $2::bigint[], $3::bigint[], $4::bigint[], $5::timestamptz[], $6::float8[])
         AS u(id, accepted, rejected, stale, last_share_at, best)
       WHERE w.id = u.id`,
      [
        rows.map((r) => r.workerId),
        rows.map((r) => r.accepted),
        rows.map((r) => r.rejected),
        rows.map((r) => r.stale),
        rows.map((r) => (r.lastShareAt === null ? null : r.lastShareAt.toISOString())),
        rows.map((r) => r.bestDifficulty),
      ],
    );
  }

  async listByPayee(payeeId: number): Promise<WorkerRow[]> {
    const result = await this.db.query<RawWorker>(
      `SELECT ${WORKER_COLUMNS} FROM workers WHERE payee_id = $1 AND hidden_at IS NULL ORDER BY name`,
      [payeeId],
    );
    return result.rows.map(toWorker);
  }

  /** The user's deleted workers (by coin and Stratum name): a login of one does not show it again. */
  async hiddenOfUser(userId: number): Promise<{ coin: string; name: string }[]> {
    const result = await this.db.query<{ coin: string; name: string }>(
      `SELECT w.coin, w.name FROM workers w JOIN user_payees up ON up.payee_id = w.payee_id
        WHERE up.user_id = $1 AND w.hidden_at IS NOT NULL`,
      [userId],
    );
    return result.rows;
  }

  async get(id: number): Promise<WorkerRow | undefined> {
    const result = await this.db.query<RawWorker>(`SELECT ${WORKER_COLUMNS} FROM workers WHERE id = $1`, [
      id,
    ]);
    const row = result.rows[0];
    return row ? toWorker(row) : undefined;
  }
}
