import type { PayoutFailure } from '@manjam/contract';
import type { Queryable } from '../types.js';
import { EARNING_REASONS } from './ledger.js';

/** Escapes LIKE wildcards so user text matches literally. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export interface BalanceFigures {
  /** Ledger sum now and as it stood at `at`. */
  balance: bigint;
  balanceAt: bigint;
  /** Earnings (EARNING_REASONS: never payouts or their refunds) in [from, mid) and [mid, to). */
  earningsPrevious: bigint;
  earningsCurrent: bigint;
}

export interface UnsettledFigures {
  /** Net earnings (EARNING_REASONS: pps, pplns, solo, orphan reversals) at or after `since`. */
  accrued: bigint;
  /** The user's planned share of pending (not yet mature, not yet credited) blocks. */
  immature: bigint;
  immatureBlocks: number;
  /** How far the coin's shares are credited (credit_progress); null before accounting first ran. */
  creditedThrough: Date | null;
}

export interface SettlementRow {
  id: number;
  coin: string;
  day: string;
  avgHashrate: number;
  amount: bigint;
  networkDifficulty: number;
  scheme: string;
  createdAt: Date;
}

export interface PayoutRow {
  id: number;
  coin: string;
  address: string;
  amount: bigint;
  status: string;
  txid: string | null;
  confirmations: number;
  createdAt: Date;
  sentAt: Date | null;
  /** Why a failed payout's run sent nothing (payout_runs.failure); null otherwise. */
  failure: PayoutFailure | null;
}

export interface RevenueFilter {
  search: string | undefined;
  coin: string | undefined;
  /** Database statuses to keep (payouts only). */
  statuses?: readonly string[] | undefined;
  limit: number;
  offset: number;
}

/** The payees of user $1 (the `user_payees` view: account payees plus the registered wallet's). */
const USER_PAYEES = `SELECT payee_id FROM user_payees WHERE user_id = $1`;

/** Read-side queries over ledger_entries, settlements and payouts of one user. */
export class RevenueQueries {
  constructor(private readonly db: Queryable) {}

  async balanceFigures(
    userId: number,
    coin: string,
    from: Date,
    mid: Date,
    to: Date,
  ): Promise<BalanceFigures> {
    const result = await this.db.query<{
      balance: string | null;
      balance_at: string | null;
      prev: string | null;
      cur: string | null;
    }>(
      `SELECT SUM(amount) AS balance,
              SUM(amount) FILTER (WHERE created_at < $4) AS balance_at,
              SUM(amount) FILTER (WHERE reason = ANY($6::text[]) AND created_at >= $3 AND created_at < $4) AS prev,
              SUM(amount) FILTER (WHERE reason = ANY($6::text[]) AND created_at >= $4 AND created_at < $5) AS cur
         FROM ledger_entries WHERE payee_id IN (${USER_PAYEES}) AND coin = $2`,
      [userId, coin, from, mid, to, [...EARNING_REASONS]],
    );
    const row = result.rows[0];
    return {
      balance: BigInt(row?.balance ?? 0),
      balanceAt: BigInt(row?.balance_at ?? 0),
      earningsPrevious: BigInt(row?.prev ?? 0),
      earningsCurrent: BigInt(row?.cur ?? 0),
    };
  }

  /** Credits not yet in a settlement row (since `since`) and planned credits of blocks not yet mature. */
  async unsettled(userId: number, coin: string, since: Date): Promise<UnsettledFigures> {
    const result = await this.db.query<{
      accrued: string | null;
      immature: string | null;
      blocks: string | number | null;
      credited_through: Date | null;
    }>(
      `SELECT (SELECT credited_through FROM credit_progress WHERE coin = $2) AS credited_through,
              (SELECT SUM(amount) FROM ledger_entries
                WHERE payee_id IN (${USER_PAYEES}) AND coin = $2 AND created_at >= $3
                  AND reason = ANY($4::text[])) AS accrued,
              SUM(p.amount) AS immature, COUNT(DISTINCT p.block_id) AS blocks
         FROM block_credit_plans p JOIN blocks b ON b.id = p.block_id
        WHERE p.payee_id IN (${USER_PAYEES}) AND b.coin = $2 AND b.status = 'pending' AND NOT b.credited
          AND p.reason IN ('pplns', 'solo') AND p.amount > 0`,
      [userId, coin, since, [...EARNING_REASONS]],
    );
    const row = result.rows[0];
    return {
      accrued: BigInt(row?.accrued ?? 0),
      immature: BigInt(row?.immature ?? 0),
      immatureBlocks: Number(row?.blocks ?? 0),
      creditedThrough: row?.credited_through ? new Date(row.credited_through) : null,
    };
  }

  async settlements(
    userId: number,
    filter: RevenueFilter,
  ): Promise<{ rows: SettlementRow[]; total: number }> {
    const where = `payee_id IN (${USER_PAYEES}) AND ($2::text IS NULL OR coin = $2)
      AND ($3::text IS NULL OR to_char(day, 'YYYY-MM-DD') LIKE $3 || '%')`;
    const params = [userId, filter.coin ?? null, filter.search ? likeLiteral(filter.search) : null];
    const [rows, count] = await Promise.all([
      this.db.query<{
        id: bigint;
        coin: string;
        day: string;
        avg_hashrate: number;
        amount: bigint;
        network_difficulty: number;
        scheme: string;
        created_at: Date;
      }>(
        `SELECT id, coin, to_char(day, 'YYYY-MM-DD') AS day, avg_hashrate, amount, network_difficulty, scheme, created_at
           FROM settlements WHERE ${where} ORDER BY day DESC, id DESC LIMIT $4 OFFSET $5`,
        [...params, filter.limit, filter.offset],
      ),
      this.db.query<{ total: bigint }>(`SELECT COUNT(*) AS total FROM settlements WHERE ${where}`, params),
    ]);
    return {
      total: Number(count.rows[0]?.total ?? 0),
      rows: rows.rows.map((r) => ({
        id: Number(r.id),
        coin: r.coin,
        day: r.day,
        avgHashrate: Number(r.avg_hashrate),
        amount: BigInt(r.amount),
        networkDifficulty: Number(r.network_difficulty),
        scheme: r.scheme,
        createdAt: new Date(r.created_at),
      })),
    };
  }

  async payouts(userId: number, filter: RevenueFilter): Promise<{ rows: PayoutRow[]; total: number }> {
    const where = `o.payee_id IN (${USER_PAYEES}) AND ($2::text IS NULL OR o.coin = $2)
      AND ($3::text IS NULL OR o.txid ILIKE '%' || $3 || '%' OR to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') LIKE $3 || '%')
      AND ($4::text[] IS NULL OR o.status = ANY($4::text[]))`;
    const params = [
      userId,
      filter.coin ?? null,
      filter.search ? likeLiteral(filter.search) : null,
      filter.statuses ? [...filter.statuses] : null,
    ];
    const [rows, count] = await Promise.all([
      this.db.query<{
        id: bigint;
        coin: string;
        address: string;
        amount: bigint;
        status: string;
        txid: string | null;
        confirmations: number;
        created_at: Date;
        sent_at: Date | null;
        failure: PayoutFailure | null;
      }>(
        `SELECT o.id, o.coin, o.address, o.amount, o.status, o.txid, o.confirmations, o.created_at, o.sent_at,
                CASE WHEN o.status = 'failed' THEN r.failure END AS failure
           FROM payouts o JOIN payout_runs r ON r.id = o.run_id
          WHERE ${where} ORDER BY o.created_at DESC, o.id DESC LIMIT $5 OFFSET $6`,
        [...params, filter.limit, filter.offset],
      ),
      this.db.query<{ total: bigint }>(`SELECT COUNT(*) AS total FROM payouts o WHERE ${where}`, params),
    ]);
    return {
      total: Number(count.rows[0]?.total ?? 0),
      rows: rows.rows.map((r) => ({
        id: Number(r.id),
        coin: r.coin,
        address: r.address,
        amount: BigInt(r.amount),
        status: r.status,
        txid: r.txid,
        confirmations: Number(r.confirmations),
        createdAt: new Date(r.created_at),
        sentAt: r.sent_at === null ? null : new Date(r.sent_at),
        failure: r.failure,
      })),
    };
  }

  /** Unpaid balance per coin of all the user's payees (from the cached balances table). */
  async balances(userId: number): Promise<Map<string, bigint>> {
    const result = await this.db.query<{ coin: string; amount: bigint | string }>(
      `SELECT coin, SUM(amount) AS amount FROM balances WHERE payee_id IN (${USER_PAYEES}) GROUP BY coin`,
      [userId],
    );
    return new Map(result.rows.map((r) => [r.coin, BigInt(r.amount)]));
  }
}
