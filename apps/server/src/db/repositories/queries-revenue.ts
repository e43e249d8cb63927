import type { Queryable } from '../types.js';

/** Escapes LIKE wildcards so user text matches literally. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export interface BalanceFigures {
  /** Ledger sum now and as it stood at `at`. */
  balance: bigint;
  balanceAt: bigint;
  /** Ledger movements other than payouts in [from, mid) and [mid, to). */
  earningsPrevious: bigint;
  earningsCurrent: bigint;
}

export interface UnsettledFigures {
  /** Net credits (pps, pplns, solo, reversals) at or after `since`. */
  accrued: bigint;
  /** The user's planned share of pending (not yet mature, not yet credited) blocks. */
  immature: bigint;
  immatureBlocks: number;
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
              SUM(amount) FILTER (WHERE reason <> 'payout' AND created_at >= $3 AND created_at < $4) AS prev,
              SUM(amount) FILTER (WHERE reason <> 'payout' AND created_at >= $4 AND created_at < $5) AS cur
         FROM ledger_entries WHERE payee_id IN (${USER_PAYEES}) AND coin = $2`,
      [userId, coin, from, mid, to],
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
    }>(
      `SELECT (SELECT SUM(amount) FROM ledger_entries
                WHERE payee_id IN (${USER_PAYEES}) AND coin = $2 AND created_at >= $3
                  AND reason IN ('pps', 'pplns', 'solo', 'reversal')) AS accrued,
              SUM(p.amount) AS immature, COUNT(DISTINCT p.block_id) AS blocks
         FROM block_credit_plans p JOIN blocks b ON b.id = p.block_id
        WHERE p.payee_id IN (${USER_PAYEES}) AND b.coin = $2 AND b.status = 'pending' AND NOT b.credited
          AND p.reason IN ('pplns', 'solo') AND p.amount > 0`,
      [userId, coin, since],
    );
    const row = result.rows[0];
    return {
      accrued: BigInt(row?.accrued ?? 0),
      immature: BigInt(row?.immature ?? 0),
      immatureBlocks: Number(row?.blocks ?? 0),
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
    const where = `payee_id IN (${USER_PAYEES}) AND ($2::text IS NULL OR coin = $2)
      AND ($3::text IS NULL OR txid ILIKE '%' || $3 || '%' OR to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') LIKE $3 || '%')
      AND ($4::text[] IS NULL OR status = ANY($4::text[]))`;
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
      }>(
        `SELECT id, coin, address, amount, status, txid, confirmations, created_at, sent_at
           FROM payouts WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $5 OFFSET $6`,
        [...params, filter.limit, filter.offset],
      ),
      this.db.query<{ total: bigint }>(`SELECT COUNT(*) AS total FROM payouts WHERE ${where}`, params),
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
