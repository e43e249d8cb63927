import { numberArray, textArray } from '../arrays.js';
import type { Queryable } from '../types.js';

export const SHARE_SCHEMES = ['pps-plus', 'pplns', 'solo'] as const;
export type ShareScheme = (typeof SHARE_SCHEMES)[number];
export const REJECT_REASONS = ['stale', 'duplicate', 'low_difficulty', 'invalid'] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

export interface ShareRow {
  workerId: number;
  payeeId: number;
  coin: string;
  difficulty: number;
  networkDifficulty: number;
  height: number;
  scheme: ShareScheme;
  /** Milliseconds since the epoch (a slot row: its last share's time). */
  createdAtMs: number;
  /** Identical shares the row stands for (1 unless a slot row: migration 0600). */
  shareCount?: number;
}

/** One worker's minute: accepted count and difficulty sum, rejected counts by reason. */
export interface ShareStatRow {
  workerId: number;
  bucket: Date;
  accepted: number;
  acceptedDifficulty: number;
  stale: number;
  duplicate: number;
  lowDifficulty: number;
  invalid: number;
}

export interface DifficultySum {
  id: number;
  difficulty: number;
  accepted: number;
  rejected: number;
}

/** Accepted shares (a row per share, or per slot: migration 0600) and the per-minute aggregate behind hashrate. */
export class SharesRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Records a flush's batch id; false when it was already recorded (that batch is in the
   * database: skip it, so a retried flush never writes its shares twice).
   */
  async claimBatch(batchId: string): Promise<boolean> {
    const result = await this.db.query(
      'INSERT INTO share_batches (id) VALUES ($1) ON CONFLICT (id) DO NOTHING RETURNING id',
      [batchId],
    );
    return result.rowCount > 0;
  }

  /** Records several batch ids in one statement; returns how many were new (distinct ids). */
  async claimBatches(batchIds: readonly string[]): Promise<number> {
    if (batchIds.length === 0) return 0;
    const result = await this.db.query(
      'INSERT INTO share_batches (id) SELECT unnest($1::text[]) ON CONFLICT (id) DO NOTHING RETURNING id',
      [textArray(batchIds)],
    );
    return result.rowCount;
  }

  async pruneBatches(before: Date): Promise<void> {
    await this.db.query('DELETE FROM share_batches WHERE created_at < $1', [before.toISOString()]);
  }

  async insertMany(rows: readonly ShareRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.query(
      `INSERT INTO shares (worker_id, payee_id, coin, difficulty, network_difficulty, height, scheme, created_at, share_count)
       SELECT w, p, c, d, n, h, s, to_timestamp(t / 1000.0), k
       FROM unnest($1::int[], $2::int[], $3::text[], $4::float8[], $5::float8[], $6::int[], $7::text[], $8::float8[], $9::int[])
         AS u(w, p, c, d, n, h, s, t, k)`,
      [
        numberArray(rows.map((r) => r.workerId)),
        numberArray(rows.map((r) => r.payeeId)),
        textArray(rows.map((r) => r.coin)),
        numberArray(rows.map((r) => r.difficulty)),
        numberArray(rows.map((r) => r.networkDifficulty)),
        numberArray(rows.map((r) => r.height)),
        textArray(rows.map((r) => r.scheme)),
        numberArray(rows.map((r) => r.createdAtMs)),
        numberArray(rows.map((r) => r.shareCount ?? 1)),
      ],
    );
  }

  /** Adds counts to each (worker, minute); rows must have distinct keys. */
  async addStats(rows: readonly ShareStatRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.query(
      `INSERT INTO share_stats AS s (worker_id, bucket, accepted, accepted_difficulty, stale, duplicate, low_difficulty, invalid)
       SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::int[], $4::float8[], $5::int[], $6::int[], $7::int[], $8::int[])
       ON CONFLICT (worker_id, bucket) DO UPDATE SET
         accepted = s.accepted + EXCLUDED.accepted,
         accepted_difficulty = s.accepted_difficulty + EXCLUDED.accepted_difficulty,
         stale = s.stale + EXCLUDED.stale,
         duplicate = s.duplicate + EXCLUDED.duplicate,
         low_difficulty = s.low_difficulty + EXCLUDED.low_difficulty,
         invalid = s.invalid + EXCLUDED.invalid`,
      [
        rows.map((r) => r.workerId),
        rows.map((r) => r.bucket.toISOString()),
        rows.map((r) => r.accepted),
        rows.map((r) => r.acceptedDifficulty),
        rows.map((r) => r.stale),
        rows.map((r) => r.duplicate),
        rows.map((r) => r.lowDifficulty),
        rows.map((r) => r.invalid),
      ],
    );
  }

  /** Per worker of a payee since a time: accepted difficulty sum and share counts. */
  async sumsByWorkerOfPayee(payeeId: number, since: Date): Promise<DifficultySum[]> {
    const result = await this.db.query<{
      id: number;
      difficulty: number;
      accepted: string;
      rejected: string;
    }>(
      `SELECT s.worker_id AS id, COALESCE(sum(s.accepted_difficulty), 0) AS difficulty,
              COALESCE(sum(s.accepted), 0) AS accepted,
              COALESCE(sum(s.stale + s.duplicate + s.low_difficulty + s.invalid), 0) AS rejected
       FROM share_stats s JOIN workers w ON w.id = s.worker_id
       WHERE w.payee_id = $1 AND s.bucket >= $2
       GROUP BY s.worker_id ORDER BY s.worker_id`,
      [payeeId, since.toISOString()],
    );
    return result.rows.map((r) => ({
      id: r.id,
      difficulty: Number(r.difficulty),
      accepted: Number(r.accepted),
      rejected: Number(r.rejected),
    }));
  }

  /** A payee's (account's or wallet's) accepted difficulty sum since a time. */
  async payeeDifficultySince(payeeId: number, since: Date): Promise<number> {
    const result = await this.db.query<{ d: number | null }>(
      `SELECT sum(s.accepted_difficulty) AS d FROM share_stats s JOIN workers w ON w.id = s.worker_id
       WHERE w.payee_id = $1 AND s.bucket >= $2`,
      [payeeId, since.toISOString()],
    );
    return Number(result.rows[0]?.d ?? 0);
  }

  /** The whole pool's accepted difficulty sum on a coin since a time. */
  async poolDifficultySince(coin: string, since: Date): Promise<number> {
    const result = await this.db.query<{ d: number | null }>(
      `SELECT sum(s.accepted_difficulty) AS d FROM share_stats s JOIN workers w ON w.id = s.worker_id
       WHERE w.coin = $1 AND s.bucket >= $2`,
      [coin, since.toISOString()],
    );
    return Number(result.rows[0]?.d ?? 0);
  }

  /** Accepted shares stored for a worker (a slot row counts its shares). */
  async countForWorker(workerId: number): Promise<number> {
    const result = await this.db.query<{ n: bigint }>(
      'SELECT COALESCE(sum(share_count), 0)::bigint AS n FROM shares WHERE worker_id = $1',
      [workerId],
    );
    return Number(result.rows[0]?.n ?? 0n);
  }
}
