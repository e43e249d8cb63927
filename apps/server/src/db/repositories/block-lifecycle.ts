import type { Queryable } from '../types.js';

export const TRACKED_BLOCK_STATUSES = ['submitted', 'pending', 'confirmed', 'orphaned'] as const;
export type TrackedBlockStatus = (typeof TRACKED_BLOCK_STATUSES)[number];

export interface LifecycleBlock {
  id: number;
  coin: string;
  height: number;
  hash: string;
  scheme: 'pps-plus' | 'pplns' | 'solo';
  finderPayeeId: number | null;
  reward: bigint;
  subsidy: bigint;
  fees: bigint;
  networkDifficulty: number;
  status: TrackedBlockStatus;
  confirmations: number;
  credited: boolean;
  plannedAt: Date | null;
  reversedAt: Date | null;
  foundAt: Date;
}

export interface CreditPlanRow {
  label: string;
  payeeId: number;
  reason: 'pplns' | 'solo' | 'fee';
  amount: bigint;
}

export interface WindowShare {
  id: bigint;
  payeeId: number;
  difficulty: number;
  createdAt: Date;
  /** Identical shares the row stands for (a slot row of the share log; else 1). */
  count: number;
}

interface RawBlock {
  id: number;
  coin: string;
  height: number;
  hash: string;
  scheme: LifecycleBlock['scheme'];
  finder_payee_id: number | null;
  reward: bigint;
  subsidy: bigint;
  fees: bigint;
  network_difficulty: number;
  status: TrackedBlockStatus;
  confirmations: number;
  credited: boolean;
  planned_at: Date | null;
  reversed_at: Date | null;
  found_at: Date;
}

const BLOCK_COLUMNS = `id, coin, height, hash, scheme, finder_payee_id, reward, subsidy, fees, network_difficulty,
  status, confirmations, credited, planned_at, reversed_at, found_at`;

const date = (v: Date | null): Date | null => (v === null ? null : new Date(v));
const toBlock = (r: RawBlock): LifecycleBlock => ({
  id: r.id,
  coin: r.coin,
  height: r.height,
  hash: r.hash,
  scheme: r.scheme,
  finderPayeeId: r.finder_payee_id,
  reward: r.reward,
  subsidy: r.subsidy,
  fees: r.fees,
  networkDifficulty: Number(r.network_difficulty),
  status: r.status,
  confirmations: r.confirmations,
  credited: r.credited,
  plannedAt: date(r.planned_at),
  reversedAt: date(r.reversed_at),
  foundAt: new Date(r.found_at),
});

/** Found blocks from 'pending' to 'confirmed' or 'orphaned', and the split each one pays. */
export class BlockLifecycleRepository {
  constructor(private readonly db: Queryable) {}

  async get(id: number): Promise<LifecycleBlock | undefined> {
    const result = await this.db.query<RawBlock>(`SELECT ${BLOCK_COLUMNS} FROM blocks WHERE id = $1`, [id]);
    const row = result.rows[0];
    return row ? toBlock(row) : undefined;
  }

  /**
   * The block's row, locked until the transaction ends (SELECT ... FOR UPDATE): two operators
   * crediting a returned block back at once are served one after the other.
   */
  async lock(id: number): Promise<LifecycleBlock | undefined> {
    const result = await this.db.query<RawBlock>(
      `SELECT ${BLOCK_COLUMNS} FROM blocks WHERE id = $1 FOR UPDATE`,
      [id],
    );
    const row = result.rows[0];
    return row ? toBlock(row) : undefined;
  }

  /**
   * A returned block whose reversed credits the operator wrote back (accounting/recredit-block.ts):
   * orphaned -> pending with its credits written, so the next pass confirms it once mature (held
   * until then) or, if it has left the chain again, orphans it and reverses the credits again.
   */
  async markRecredited(blockId: number): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE blocks SET status = 'pending', confirmations = 0, orphaned_at = NULL, credited = TRUE
       WHERE id = $1 AND status = 'orphaned' AND reversed_at IS NOT NULL`,
      [blockId],
    );
    return result.rowCount > 0;
  }

  /**
   * A page of the blocks to track, by (height, id) after `after`: submitted and pending blocks, and
   * confirmed or orphaned ones at or above `minConfirmedHeight` (a deep reorg still shows; so does
   * a reorg back that returns an orphaned block to the chain).
   */
  async tracked(
    coin: string,
    minConfirmedHeight: number,
    after: { height: number; id: number } | null,
    limit: number,
  ): Promise<LifecycleBlock[]> {
    const result = await this.db.query<RawBlock>(
      `SELECT ${BLOCK_COLUMNS} FROM blocks
       WHERE coin = $1
         AND (status IN ('submitted', 'pending') OR (status IN ('confirmed', 'orphaned') AND height >= $2))
         AND ($3::int IS NULL OR (height, id) > ($3::int, $4::int))
       ORDER BY height, id LIMIT $5`,
      [coin, minConfirmedHeight, after?.height ?? null, after?.id ?? 0, limit],
    );
    return result.rows.map(toBlock);
  }

  /** The first `limit` blocks still needing their split fixed (submitted, pending or confirmed, never planned). */
  async unplanned(coin: string, limit: number): Promise<LifecycleBlock[]> {
    const result = await this.db.query<RawBlock>(
      `SELECT ${BLOCK_COLUMNS} FROM blocks
       WHERE coin = $1 AND planned_at IS NULL AND status IN ('submitted', 'pending', 'confirmed')
       ORDER BY height, id LIMIT $2`,
      [coin, limit],
    );
    return result.rows.map(toBlock);
  }

  /** When the pool's previous block on this coin (before this one) was found. */
  async previousFoundAt(coin: string, block: { id: number; foundAt: Date }): Promise<Date | null> {
    const result = await this.db.query<{ found_at: Date }>(
      `SELECT found_at FROM blocks
       WHERE coin = $1 AND id <> $2 AND found_at < $3 AND status IN ('pending', 'confirmed', 'orphaned')
       ORDER BY found_at DESC LIMIT 1`,
      [coin, block.id, block.foundAt.toISOString()],
    );
    const row = result.rows[0];
    return row ? new Date(row.found_at) : null;
  }

  /**
   * The work of a coin's shares in (from, to]; from null = since the first share. A share counts
   * its difficulty, but never more than the network difficulty it was mined against: a share at
   * or above it is a block's worth of work, and the blocks below the share target are submitted
   * on their own (so on a chain whose difficulty sits under the share difficulty, as on regtest,
   * a block's effort stays near 100 % instead of share/network difficulty).
   */
  async shareDifficultySum(coin: string, from: Date | null, to: Date): Promise<number> {
    const result = await this.db.query<{ total: number | null }>(
      `SELECT SUM(LEAST(difficulty, network_difficulty) * share_count) AS total FROM shares
       WHERE coin = $1 AND created_at <= $3 AND ($2::timestamptz IS NULL OR created_at > $2::timestamptz)`,
      [coin, from?.toISOString() ?? null, to.toISOString()],
    );
    return Number(result.rows[0]?.total ?? 0);
  }

  /**
   * A page of a scheme's shares found at or before `at`, newest first, strictly before `cursor`
   * (a slot row stands at its last share's time: shares/slots.ts).
   */
  async windowPage(
    coin: string,
    scheme: string,
    at: Date,
    cursor: { createdAt: Date; id: bigint } | null,
    limit: number,
  ): Promise<WindowShare[]> {
    const result = await this.db.query<{
      id: bigint;
      payee_id: number;
      difficulty: number;
      created_at: Date;
      share_count: number;
    }>(
      `SELECT id, payee_id, difficulty, created_at, share_count FROM shares
       WHERE coin = $1 AND scheme = $2 AND created_at <= $3
         AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::bigint))
       ORDER BY created_at DESC, id DESC LIMIT $6`,
      [coin, scheme, at.toISOString(), cursor?.createdAt.toISOString() ?? null, cursor?.id ?? 0n, limit],
    );
    return result.rows.map((r) => ({
      id: r.id,
      payeeId: r.payee_id,
      difficulty: Number(r.difficulty),
      createdAt: new Date(r.created_at),
      count: r.share_count,
    }));
  }

  /** Fixes a block's split and effort; a block already planned keeps its first plan. */
  async savePlan(blockId: number, rows: readonly CreditPlanRow[], effort: number | null): Promise<boolean> {
    const claimed = await this.db.query(
      'UPDATE blocks SET planned_at = now(), effort = $2 WHERE id = $1 AND planned_at IS NULL',
      [blockId, effort],
    );
    if (claimed.rowCount === 0) return false;
    if (rows.length === 0) return true;
    // One statement for the block's rows (a backlog of thousands of blocks on PGlite pays per statement).
    await this.db.query(
      `INSERT INTO block_credit_plans (block_id, label, payee_id, reason, amount)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[], $5::bigint[])`,
      [
        blockId,
        rows.map((r) => r.label),
        rows.map((r) => r.payeeId),
        rows.map((r) => r.reason),
        rows.map((r) => r.amount.toString()),
      ],
    );
    return true;
  }

  async plan(blockId: number): Promise<CreditPlanRow[]> {
    const result = await this.db.query<{
      label: string;
      payee_id: number;
      reason: CreditPlanRow['reason'];
      amount: bigint;
    }>('SELECT label, payee_id, reason, amount FROM block_credit_plans WHERE block_id = $1 ORDER BY label', [
      blockId,
    ]);
    return result.rows.map((r) => ({
      label: r.label,
      payeeId: r.payee_id,
      reason: r.reason,
      amount: r.amount,
    }));
  }

  async setConfirmations(blockId: number, confirmations: number): Promise<void> {
    await this.db.query('UPDATE blocks SET confirmations = $2 WHERE id = $1', [blockId, confirmations]);
  }

  /** pending -> confirmed with credits written; false when the block was not pending. */
  async markConfirmed(blockId: number, confirmations: number): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE blocks SET status = 'confirmed', confirmations = $2, credited = TRUE, confirmed_at = now()
       WHERE id = $1 AND status = 'pending'`,
      [blockId, confirmations],
    );
    return result.rowCount > 0;
  }

  /**
   * confirmed -> pending: a reorg left the block on the main chain but below coinbase maturity
   * again. Its credits stay in the ledger but are held (not payable) while it is pending.
   */
  async markImmature(blockId: number, confirmations: number): Promise<boolean> {
    const result = await this.db.query(
      "UPDATE blocks SET status = 'pending', confirmations = $2 WHERE id = $1 AND status = 'confirmed'",
      [blockId, confirmations],
    );
    return result.rowCount > 0;
  }

  /** pending (credits already written, held) -> confirmed again once mature. */
  async markMatureAgain(blockId: number, confirmations: number): Promise<boolean> {
    const result = await this.db.query(
      "UPDATE blocks SET status = 'confirmed', confirmations = $2 WHERE id = $1 AND status = 'pending' AND credited",
      [blockId, confirmations],
    );
    return result.rowCount > 0;
  }

  /** submitted (outcome unknown) -> pending once the node's main chain holds it. */
  async promoteSubmitted(blockId: number): Promise<boolean> {
    const result = await this.db.query(
      "UPDATE blocks SET status = 'pending' WHERE id = $1 AND status = 'submitted'",
      [blockId],
    );
    return result.rowCount > 0;
  }

  /** submitted -> rejected: the chain went on without it. */
  async rejectSubmitted(blockId: number): Promise<boolean> {
    const result = await this.db.query(
      "UPDATE blocks SET status = 'rejected' WHERE id = $1 AND status = 'submitted'",
      [blockId],
    );
    return result.rowCount > 0;
  }

  /** orphaned -> pending, for a block back on the main chain whose credits were never written. */
  async reinstate(blockId: number): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE blocks SET status = 'pending', confirmations = 0, orphaned_at = NULL
       WHERE id = $1 AND status = 'orphaned' AND reversed_at IS NULL AND NOT credited`,
      [blockId],
    );
    return result.rowCount > 0;
  }

  /** pending/confirmed -> orphaned; `reversed` records that its credits were reversed. */
  async markOrphaned(blockId: number, reversed: boolean): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE blocks SET status = 'orphaned', confirmations = 0, orphaned_at = now(),
         reversed_at = CASE WHEN $2 THEN now() ELSE reversed_at END
       WHERE id = $1 AND status IN ('pending', 'confirmed')`,
      [blockId, reversed],
    );
    return result.rowCount > 0;
  }
}
