import type { PayoutFailure } from '@manjam/contract';
import type { Queryable } from '../types.js';

export const PAYOUT_RUN_STATUSES = ['intent', 'sent', 'recorded', 'failed'] as const;
export type PayoutRunStatus = (typeof PAYOUT_RUN_STATUSES)[number];
export const PAYOUT_STATUSES = ['pending', 'sent', 'confirmed', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** A payee holding a positive balance, with everything needed to decide where and whether to pay. */
export interface PayableBalance {
  payeeId: number;
  kind: 'user' | 'wallet';
  userId: number | null;
  amount: bigint;
  /** The account's threshold for this coin in base units; null for wallets or the pool default. */
  threshold: bigint | null;
  payeeAddress: string | null;
  /** The account's payout address for this coin (user_payout_settings), and its pending change. */
  payoutAddress: string | null;
  pendingPayoutAddress: string | null;
  pendingPayoutEffectiveAt: Date | null;
}

export interface PayoutRunRow {
  id: bigint;
  coin: string;
  status: PayoutRunStatus;
  comment: string;
  txid: string | null;
  error: string | null;
  createdAt: Date;
}

export interface PayoutRow {
  id: bigint;
  runId: bigint;
  payeeId: number;
  userId: number | null;
  coin: string;
  address: string;
  amount: bigint;
  status: PayoutStatus;
  txid: string | null;
}

interface RawRun {
  id: bigint;
  coin: string;
  status: PayoutRunStatus;
  comment: string;
  txid: string | null;
  error: string | null;
  created_at: Date;
}

const toRun = (r: RawRun): PayoutRunRow => ({
  id: r.id,
  coin: r.coin,
  status: r.status,
  comment: r.comment,
  txid: r.txid,
  error: r.error,
  createdAt: new Date(r.created_at),
});

/** Payout runs (one sendmany each) and their payouts (one per payee). */
export class PayoutsRepository {
  constructor(private readonly db: Queryable) {}

  /** Positive balances of users and wallets on a coin, locked until the transaction ends. */
  async payableBalances(coin: string): Promise<PayableBalance[]> {
    const result = await this.db.query<{
      payee_id: number;
      kind: 'user' | 'wallet';
      user_id: number | null;
      amount: bigint;
      threshold: bigint | string | null;
      payee_address: string | null;
      payout_address: string | null;
      pending_payout_address: string | null;
      pending_payout_effective_at: Date | null;
    }>(
      // Credits of blocks that fell back below coinbase maturity (pending, already credited) are
      // held: in the balance, not payable until the block is mature again.
      // An account's address and threshold are those it set for THIS coin (user_payout_settings).
      `SELECT b.payee_id, p.kind, p.user_id, b.amount - COALESCE(h.held, 0) AS amount, s.threshold,
              p.address AS payee_address, s.address AS payout_address, s.pending_address AS pending_payout_address,
              s.pending_effective_at AS pending_payout_effective_at
       FROM balances b
       JOIN payees p ON p.id = b.payee_id
       LEFT JOIN user_payout_settings s ON s.user_id = p.user_id AND s.coin = b.coin
       LEFT JOIN (
         SELECT le.payee_id, SUM(le.amount)::bigint AS held
         FROM blocks bl JOIN ledger_entries le ON le.block_id = bl.id
         WHERE bl.coin = $1 AND bl.status = 'pending' AND bl.credited
         GROUP BY le.payee_id
       ) h ON h.payee_id = b.payee_id
       WHERE b.coin = $1 AND b.amount - COALESCE(h.held, 0) > 0 AND p.kind IN ('user', 'wallet')
       ORDER BY b.payee_id
       FOR UPDATE OF b`,
      [coin],
    );
    return result.rows.map((r) => ({
      payeeId: r.payee_id,
      kind: r.kind,
      userId: r.user_id,
      amount: r.amount,
      threshold: r.threshold === null ? null : BigInt(r.threshold),
      payeeAddress: r.payee_address,
      payoutAddress: r.payout_address,
      pendingPayoutAddress: r.pending_payout_address,
      pendingPayoutEffectiveAt:
        r.pending_payout_effective_at === null ? null : new Date(r.pending_payout_effective_at),
    }));
  }

  /** `deferred`: payees above their threshold this run leaves for a follow-up run. */
  async createRun(coin: string, comment: string, deferred = 0): Promise<bigint> {
    const result = await this.db.query<{ id: bigint }>(
      "INSERT INTO payout_runs (coin, status, comment, deferred) VALUES ($1, 'intent', $2, $3) RETURNING id",
      [coin, comment, deferred],
    );
    const row = result.rows[0];
    if (!row) throw new Error('payout run insert returned no row');
    return row.id;
  }

  async addPayout(
    runId: bigint,
    payeeId: number,
    coin: string,
    address: string,
    amount: bigint,
  ): Promise<bigint> {
    const result = await this.db.query<{ id: bigint }>(
      `INSERT INTO payouts (run_id, payee_id, coin, address, amount, status) VALUES ($1, $2, $3, $4, $5, 'pending')
       RETURNING id`,
      [runId, payeeId, coin, address, amount],
    );
    const row = result.rows[0];
    if (!row) throw new Error('payout insert returned no row');
    return row.id;
  }

  async runsWithStatus(coin: string, statuses: readonly PayoutRunStatus[]): Promise<PayoutRunRow[]> {
    const result = await this.db.query<RawRun>(
      `SELECT id, coin, status, comment, txid, error, created_at FROM payout_runs
       WHERE coin = $1 AND status = ANY($2::text[]) ORDER BY id`,
      [coin, [...statuses]],
    );
    return result.rows.map(toRun);
  }

  /** Runs of a coin with one of these statuses created at or after `since`. */
  async runsSince(coin: string, statuses: readonly PayoutRunStatus[], since: Date): Promise<PayoutRunRow[]> {
    const result = await this.db.query<RawRun>(
      `SELECT id, coin, status, comment, txid, error, created_at FROM payout_runs
       WHERE coin = $1 AND status = ANY($2::text[]) AND created_at >= $3 ORDER BY id`,
      [coin, [...statuses], since.toISOString()],
    );
    return result.rows.map(toRun);
  }

  async getRun(runId: bigint): Promise<PayoutRunRow | undefined> {
    const result = await this.db.query<RawRun>(
      'SELECT id, coin, status, comment, txid, error, created_at FROM payout_runs WHERE id = $1',
      [runId],
    );
    const row = result.rows[0];
    return row ? toRun(row) : undefined;
  }

  async payoutsOfRun(runId: bigint): Promise<PayoutRow[]> {
    const result = await this.db.query<{
      id: bigint;
      run_id: bigint;
      payee_id: number;
      user_id: number | null;
      coin: string;
      address: string;
      amount: bigint;
      status: PayoutStatus;
      txid: string | null;
    }>(
      `SELECT o.id, o.run_id, o.payee_id, p.user_id, o.coin, o.address, o.amount, o.status, o.txid
       FROM payouts o JOIN payees p ON p.id = o.payee_id WHERE o.run_id = $1 ORDER BY o.id`,
      [runId],
    );
    return result.rows.map((r) => ({
      id: r.id,
      runId: r.run_id,
      payeeId: r.payee_id,
      userId: r.user_id,
      coin: r.coin,
      address: r.address,
      amount: r.amount,
      status: r.status,
      txid: r.txid,
    }));
  }

  /** Txids already claimed by runs of this coin (a reconcile never claims one twice). */
  async claimedTxids(coin: string): Promise<Set<string>> {
    const result = await this.db.query<{ txid: string }>(
      'SELECT txid FROM payout_runs WHERE coin = $1 AND txid IS NOT NULL',
      [coin],
    );
    return new Set(result.rows.map((r) => r.txid));
  }

  /** intent -> sent; false when the run was no longer an intent. */
  async markSent(runId: bigint, txid: string, from: 'intent' | 'sent' = 'intent'): Promise<boolean> {
    const run = await this.db.query(
      "UPDATE payout_runs SET status = 'sent', txid = $2, sent_at = now() WHERE id = $1 AND status = $3",
      [runId, txid, from],
    );
    if (run.rowCount === 0) return false;
    await this.db.query("UPDATE payouts SET status = 'sent', txid = $2, sent_at = now() WHERE run_id = $1", [
      runId,
      txid,
    ]);
    return true;
  }

  /**
   * intent -> failed (nothing was sent), with the reason the payouts screen shows (`failure`) and
   * the operator's detail (`error`); false when the run was no longer in `from` (an intent, or a
   * sent run the operator found never paid: settle-run.ts).
   */
  async markFailed(
    runId: bigint,
    failure: PayoutFailure,
    error: string,
    from: 'intent' | 'sent' = 'intent',
  ): Promise<boolean> {
    const run = await this.db.query(
      "UPDATE payout_runs SET status = 'failed', failure = $2, error = $3 WHERE id = $1 AND status = $4",
      [runId, failure, error.slice(0, 1000), from],
    );
    if (run.rowCount === 0) return false;
    await this.db.query("UPDATE payouts SET status = 'failed' WHERE run_id = $1", [runId]);
    return true;
  }

  async setConfirmations(runId: bigint, confirmations: number, confirmed: boolean): Promise<void> {
    await this.db.query(
      `UPDATE payouts SET confirmations = $2,
         status = CASE WHEN $3 THEN 'confirmed' ELSE status END,
         confirmed_at = CASE WHEN $3 AND confirmed_at IS NULL THEN now() ELSE confirmed_at END
       WHERE run_id = $1 AND status IN ('sent', 'confirmed')`,
      [runId, confirmations, confirmed],
    );
    if (confirmed)
      await this.db.query("UPDATE payout_runs SET status = 'recorded' WHERE id = $1 AND status = 'sent'", [
        runId,
      ]);
  }

  /** When the last run of a coin started (any status), for the payout interval. */
  /** Whether the coin's latest run left payees for a follow-up run (payouts.ts, runFollowUp). */
  async followUpOwed(coin: string): Promise<boolean> {
    const result = await this.db.query<{ deferred: number }>(
      'SELECT deferred FROM payout_runs WHERE coin = $1 ORDER BY id DESC LIMIT 1',
      [coin],
    );
    return (result.rows[0]?.deferred ?? 0) > 0;
  }

  async lastRunAt(coin: string): Promise<Date | null> {
    const result = await this.db.query<{ at: Date | null }>(
      'SELECT MAX(created_at) AS at FROM payout_runs WHERE coin = $1',
      [coin],
    );
    const at = result.rows[0]?.at;
    return at ? new Date(at) : null;
  }
}
