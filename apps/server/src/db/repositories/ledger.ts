import type { Queryable } from '../types.js';

/**
 * Why a ledger entry moved a balance. `reversal`: a credit of a block that was orphaned, taken back
 * (negative earnings). `refund`: the amount of a payout that sent nothing (a failed run), given back
 * to the balance; it is not earned again, so no earnings figure counts it.
 */
export const LEDGER_REASONS = [
  'pps',
  'pplns',
  'solo',
  'fee',
  'payout',
  'reversal',
  'refund',
  'adjustment',
] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/**
 * The reasons that are a payee's earnings: credits and reversals of orphaned credits. Every
 * earnings figure (24 h earnings, today so far, daily settlements) sums exactly these; payouts
 * and their refunds move the balance only, fees are the pool's.
 */
export const EARNING_REASONS = [
  'pps',
  'pplns',
  'solo',
  'reversal',
] as const satisfies readonly LedgerReason[];

export interface LedgerEntryInput {
  payeeId: number;
  coin: string;
  /** Signed base units: credits positive, debits negative. */
  amount: bigint;
  reason: LedgerReason;
  /** Idempotency key: an entry whose reference exists is never written again. */
  reference: string;
  blockId?: number | null;
  payoutId?: bigint | null;
  createdAt?: Date;
}

export interface LedgerEntryRow {
  id: bigint;
  payeeId: number;
  coin: string;
  amount: bigint;
  reason: LedgerReason;
  reference: string;
  blockId: number | null;
  payoutId: bigint | null;
  createdAt: Date;
}

interface RawEntry {
  id: bigint;
  payee_id: number;
  coin: string;
  amount: bigint;
  reason: LedgerReason;
  reference: string;
  block_id: number | null;
  payout_id: bigint | null;
  created_at: Date;
}

const toEntry = (r: RawEntry): LedgerEntryRow => ({
  id: r.id,
  payeeId: r.payee_id,
  coin: r.coin,
  amount: r.amount,
  reason: r.reason,
  reference: r.reference,
  blockId: r.block_id,
  payoutId: r.payout_id,
  createdAt: new Date(r.created_at),
});

const ENTRY_COLUMNS = 'id, payee_id, coin, amount, reason, reference, block_id, payout_id, created_at';

/**
 * The immutable ledger. `append` writes an entry and moves the cached balance in the same
 * statement, so cache and ledger can only move together; call it inside a transaction.
 */
export class LedgerRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Appends entries (one statement); returns those actually written — an entry whose reference
   * exists is skipped, and only written entries move the cached balances.
   */
  async append(entries: readonly LedgerEntryInput[]): Promise<LedgerEntryInput[]> {
    if (entries.length === 0) return [];
    const result = await this.db.query<{ reference: string }>(
      `WITH input AS (
         SELECT * FROM unnest($1::int[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::int[], $7::bigint[], $8::timestamptz[])
           WITH ORDINALITY AS t(payee_id, coin, amount, reason, reference, block_id, payout_id, created_at, n)),
       inserted AS (
         INSERT INTO ledger_entries (payee_id, coin, amount, reason, reference, block_id, payout_id, created_at)
         SELECT payee_id, coin, amount, reason, reference, block_id, payout_id, COALESCE(created_at, now()) FROM input ORDER BY n
         ON CONFLICT (reference) DO NOTHING
         RETURNING payee_id, coin, amount, reference),
       moved AS (
         INSERT INTO balances (payee_id, coin, amount)
         SELECT payee_id, coin, SUM(amount)::bigint FROM inserted GROUP BY payee_id, coin
         ON CONFLICT (payee_id, coin) DO UPDATE SET amount = balances.amount + EXCLUDED.amount, updated_at = now()
         RETURNING payee_id)
       SELECT reference FROM inserted`,
      [
        entries.map((e) => e.payeeId),
        entries.map((e) => e.coin),
        entries.map((e) => e.amount.toString()),
        entries.map((e) => e.reason),
        entries.map((e) => e.reference),
        entries.map((e) => e.blockId ?? null),
        entries.map((e) => (e.payoutId === undefined || e.payoutId === null ? null : e.payoutId.toString())),
        entries.map((e) => e.createdAt?.toISOString() ?? null),
      ],
    );
    const written = new Set(result.rows.map((r) => r.reference));
    return entries.filter((e) => written.has(e.reference));
  }

  /** The pool's own payee on a coin (fees, remainders), created on first use. */
  async ensurePoolPayee(coin: string): Promise<number> {
    const result = await this.db.query<{ id: number }>(
      `INSERT INTO payees (coin, kind) VALUES ($1, 'pool')
       ON CONFLICT (coin) WHERE kind = 'pool' DO UPDATE SET coin = EXCLUDED.coin
       RETURNING id`,
      [coin],
    );
    const row = result.rows[0];
    if (!row) throw new Error(`no pool payee for ${coin}`);
    return row.id;
  }

  /** A payee's balance as the ledger sums it (the truth the cache must equal). */
  async sum(payeeId: number, coin: string): Promise<bigint> {
    const result = await this.db.query<{ total: bigint }>(
      'SELECT COALESCE(SUM(amount), 0)::bigint AS total FROM ledger_entries WHERE payee_id = $1 AND coin = $2',
      [payeeId, coin],
    );
    return result.rows[0]?.total ?? 0n;
  }

  async entriesForBlock(blockId: number): Promise<LedgerEntryRow[]> {
    const result = await this.db.query<RawEntry>(
      `SELECT ${ENTRY_COLUMNS} FROM ledger_entries WHERE block_id = $1 ORDER BY id`,
      [blockId],
    );
    return result.rows.map(toEntry);
  }

  async entriesForPayee(payeeId: number, coin: string): Promise<LedgerEntryRow[]> {
    const result = await this.db.query<RawEntry>(
      `SELECT ${ENTRY_COLUMNS} FROM ledger_entries WHERE payee_id = $1 AND coin = $2 ORDER BY id`,
      [payeeId, coin],
    );
    return result.rows.map(toEntry);
  }

  async entriesByReferencePrefix(prefix: string): Promise<LedgerEntryRow[]> {
    const result = await this.db.query<RawEntry>(
      `SELECT ${ENTRY_COLUMNS} FROM ledger_entries WHERE starts_with(reference, $1) ORDER BY id`,
      [prefix],
    );
    return result.rows.map(toEntry);
  }
}

export interface UncreditedShare {
  id: bigint;
  payeeId: number;
  difficulty: number;
  networkDifficulty: number;
  height: number;
  scheme: string;
  createdAt: Date;
  /** Identical shares the row stands for (a slot row of the share log; else 1). */
  shareCount: number;
  /** The template's block reward recorded at the share's height (template_rewards; XMR), else null. */
  templateReward: bigint | null;
}

interface RawShare {
  id: bigint;
  payee_id: number;
  difficulty: number;
  network_difficulty: number;
  height: number;
  scheme: string;
  created_at: Date;
  share_count: number;
  template_reward: string | null;
}

/** The shares side of PPS crediting: uncredited shares, the credited flag, carried fractions. */
export class PpsCreditRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * The oldest uncredited shares of a coin, locked until the transaction ends. With
   * `needsTemplateReward` (XMR) only shares whose height has a recorded template reward: one
   * recorded late is credited then, in a later cycle.
   */
  async uncreditedShares(
    coin: string,
    limit: number,
    needsTemplateReward = false,
  ): Promise<UncreditedShare[]> {
    const result = await this.db.query<RawShare>(
      `SELECT s.id, s.payee_id, s.difficulty, s.network_difficulty, s.height, s.scheme, s.created_at,
         s.share_count, r.reward::text AS template_reward
       FROM shares s LEFT JOIN template_rewards r ON r.coin = s.coin AND r.height = s.height
       WHERE s.coin = $1 AND NOT s.credited AND (NOT $3 OR r.reward IS NOT NULL)
       ORDER BY s.id LIMIT $2 FOR UPDATE OF s`,
      [coin, limit, needsTemplateReward],
    );
    return result.rows.map((r) => ({
      id: r.id,
      payeeId: r.payee_id,
      difficulty: Number(r.difficulty),
      networkDifficulty: Number(r.network_difficulty),
      height: r.height,
      scheme: r.scheme,
      createdAt: new Date(r.created_at),
      shareCount: r.share_count,
      templateReward: r.template_reward === null ? null : BigInt(r.template_reward),
    }));
  }

  async markCredited(ids: readonly bigint[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.db.query('UPDATE shares SET credited = TRUE WHERE id = ANY($1::bigint[])', [
      ids.map((id) => id.toString()),
    ]);
    return result.rowCount;
  }

  /** Carried fixed-point fractions of these payees (0 when none). */
  async carries(coin: string, payeeIds: readonly number[]): Promise<Map<number, bigint>> {
    const out = new Map<number, bigint>();
    if (payeeIds.length === 0) return out;
    const result = await this.db.query<{ payee_id: number; fraction: bigint }>(
      'SELECT payee_id, fraction FROM pps_carry WHERE coin = $1 AND payee_id = ANY($2::int[]) FOR UPDATE',
      [coin, [...payeeIds]],
    );
    for (const row of result.rows) out.set(row.payee_id, row.fraction);
    return out;
  }

  /** Stores carried fractions (one statement; each payee at most once). */
  async saveCarries(coin: string, fractions: ReadonlyMap<number, bigint>): Promise<void> {
    if (fractions.size === 0) return;
    await this.db.query(
      `INSERT INTO pps_carry (payee_id, coin, fraction)
       SELECT payee_id, $1, fraction FROM unnest($2::int[], $3::bigint[]) AS t(payee_id, fraction)
       ON CONFLICT (payee_id, coin) DO UPDATE SET fraction = EXCLUDED.fraction, updated_at = now()`,
      [coin, [...fractions.keys()], [...fractions.values()].map((f) => f.toString())],
    );
  }
}
