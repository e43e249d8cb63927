import type { Queryable } from '../types.js';

export const PAYEE_KINDS = ['user', 'wallet', 'pool'] as const;
export type PayeeKind = (typeof PAYEE_KINDS)[number];

export interface PayeeRow {
  id: number;
  coin: string;
  kind: PayeeKind;
  userId: number | null;
  address: string | null;
}

export interface AccountRow {
  id: number;
  username: string;
}

interface RawPayee {
  id: number;
  coin: string;
  kind: PayeeKind;
  user_id: number | null;
  address: string | null;
}

const toPayee = (row: RawPayee): PayeeRow => ({
  id: row.id,
  coin: row.coin,
  kind: row.kind,
  userId: row.user_id,
  address: row.address,
});

/** Payees: who earns (an account on one coin, a wallet address without an account, the pool). */
export class PayeesRepository {
  constructor(private readonly db: Queryable) {}

  /** The Manjam account a Stratum username names (case-insensitive), if any. */
  async findAccount(username: string): Promise<AccountRow | undefined> {
    const result = await this.db.query<AccountRow>(
      'SELECT id, username FROM users WHERE lower(username) = lower($1)',
      [username],
    );
    return result.rows[0];
  }

  /** The payee of an account on a coin, created on first use. */
  async ensureUser(coin: string, userId: number): Promise<number> {
    const result = await this.db.query<{ id: number }>(
      `INSERT INTO payees (coin, kind, user_id) VALUES ($1, 'user', $2)
       ON CONFLICT (coin, user_id) WHERE kind = 'user' DO UPDATE SET coin = EXCLUDED.coin
       RETURNING id`,
      [coin, userId],
    );
    return firstId(result.rows);
  }

  /** The payee of a wallet address mining without an account, created on first use. */
  async ensureWallet(coin: string, address: string): Promise<number> {
    const result = await this.db.query<{ id: number }>(
      `INSERT INTO payees (coin, kind, address) VALUES ($1, 'wallet', $2)
       ON CONFLICT (coin, address) WHERE kind = 'wallet' DO UPDATE SET coin = EXCLUDED.coin
       RETURNING id`,
      [coin, address],
    );
    return firstId(result.rows);
  }

  /** The pool's own payee on a coin (fees), created on first use. */
  async ensurePool(coin: string): Promise<number> {
    const result = await this.db.query<{ id: number }>(
      `INSERT INTO payees (coin, kind) VALUES ($1, 'pool')
       ON CONFLICT (coin) WHERE kind = 'pool' DO UPDATE SET coin = EXCLUDED.coin
       RETURNING id`,
      [coin],
    );
    return firstId(result.rows);
  }

  async get(id: number): Promise<PayeeRow | undefined> {
    const result = await this.db.query<RawPayee>(
      'SELECT id, coin, kind, user_id, address FROM payees WHERE id = $1',
      [id],
    );
    const row = result.rows[0];
    return row ? toPayee(row) : undefined;
  }
}

function firstId(rows: { id: number }[]): number {
  const row = rows[0];
  if (!row) throw new Error('payee upsert returned no row');
  return row.id;
}
