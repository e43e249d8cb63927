import type { Queryable } from '../../db/types.js';

// Test fixtures for the alerts and assistant suites: real rows in the real schema.

export interface FixtureUser {
  username: string;
  email?: string;
  walletAddress?: string | null;
  language?: 'en' | 'ar';
  notifications?: boolean;
  emailAlerts?: boolean;
  payoutThreshold?: '0.001' | '0.01' | '0.1';
}

export async function createUser(db: Queryable, user: FixtureUser): Promise<number> {
  const inserted = await db.query<{ id: number }>(
    'INSERT INTO users (username, email, password_hash, wallet_address) VALUES ($1, $2, $3, $4) RETURNING id',
    [user.username, user.email ?? `${user.username}@example.com`, 'not-a-real-hash', user.walletAddress ?? null],
  );
  const id = inserted.rows[0]?.id;
  if (id === undefined) throw new Error('user not created');
  await db.query(
    `INSERT INTO user_settings (user_id, language, notifications, email_alerts, payout_threshold) VALUES ($1, $2, $3, $4, $5)`,
    [id, user.language ?? 'en', user.notifications ?? true, user.emailAlerts ?? false, user.payoutThreshold ?? '0.01'],
  );
  return id;
}

export async function createPayee(db: Queryable, coin: string, owner: { userId: number } | { address: string }): Promise<number> {
  const result =
    'userId' in owner
      ? await db.query<{ id: number }>("INSERT INTO payees (coin, kind, user_id) VALUES ($1, 'user', $2) RETURNING id", [coin, owner.userId])
      : await db.query<{ id: number }>("INSERT INTO payees (coin, kind, address) VALUES ($1, 'wallet', $2) RETURNING id", [coin, owner.address]);
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('payee not created');
  return id;
}

export async function createWorker(db: Queryable, payeeId: number, coin: string, name: string, lastShareAt: Date | null): Promise<number> {
  const result = await db.query<{ id: number }>(
    `INSERT INTO workers (payee_id, coin, name, algorithm, last_share_at, first_seen_at)
     VALUES ($1, $2, $3, $4, $5, coalesce($5, now())) RETURNING id`,
    [payeeId, coin, name, coin === 'LTC' ? 'scrypt' : 'sha256d', lastShareAt],
  );
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('worker not created');
  return id;
}

export async function setLastShare(db: Queryable, workerId: number, at: Date | null): Promise<void> {
  await db.query('UPDATE workers SET last_share_at = $2 WHERE id = $1', [workerId, at]);
}

/** Adds per-minute share stats: `perMinute` accepted difficulty each minute in [from, to). */
export async function addShareMinutes(
  db: Queryable,
  workerId: number,
  from: Date,
  to: Date,
  perMinute: { accepted: number; difficulty: number; rejected?: number },
): Promise<void> {
  await db.query(
    `INSERT INTO share_stats (worker_id, bucket, accepted, accepted_difficulty, low_difficulty)
     SELECT $1, b, $4, $5, $6 FROM generate_series(date_trunc('minute', $2::timestamptz), $3::timestamptz - interval '1 minute', interval '1 minute') AS b
     ON CONFLICT (worker_id, bucket) DO UPDATE SET accepted = EXCLUDED.accepted, accepted_difficulty = EXCLUDED.accepted_difficulty,
       low_difficulty = EXCLUDED.low_difficulty`,
    [workerId, from, to, perMinute.accepted, perMinute.difficulty, perMinute.rejected ?? 0],
  );
}

export async function addBlock(db: Queryable, block: { coin: string; height: number; hash: string; foundAt: Date; finderPayeeId: number | null; status?: string }): Promise<number> {
  const result = await db.query<{ id: number }>(
    `INSERT INTO blocks (coin, height, hash, finder_payee_id, scheme, reward, subsidy, fees, network_difficulty, share_difficulty, status, found_at)
     VALUES ($1, $2, $3, $4, 'pps-plus', 5000000000, 5000000000, 0, 1, 1, $5, $6) RETURNING id`,
    [block.coin, block.height, block.hash, block.finderPayeeId, block.status ?? 'pending', block.foundAt],
  );
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('block not created');
  return id;
}

export async function addPayout(
  db: Queryable,
  payout: { payeeId: number; coin: string; amount: bigint; address: string; txid: string; sentAt: Date; comment: string },
): Promise<number> {
  const run = await db.query<{ id: bigint }>(
    "INSERT INTO payout_runs (coin, status, comment, txid, created_at, sent_at) VALUES ($1, 'sent', $2, $3, $4, $4) RETURNING id",
    [payout.coin, payout.comment, payout.txid, payout.sentAt],
  );
  const result = await db.query<{ id: bigint }>(
    `INSERT INTO payouts (run_id, payee_id, coin, address, amount, status, txid, created_at, sent_at)
     VALUES ($1, $2, $3, $4, $5, 'sent', $6, $7, $7) RETURNING id`,
    [run.rows[0]?.id, payout.payeeId, payout.coin, payout.address, payout.amount, payout.txid, payout.sentAt],
  );
  return Number(result.rows[0]?.id);
}

export async function credit(db: Queryable, payeeId: number, coin: string, amount: bigint, at: Date, reference: string): Promise<void> {
  await db.query(
    "INSERT INTO ledger_entries (payee_id, coin, amount, reason, reference, created_at) VALUES ($1, $2, $3, 'pps', $4, $5)",
    [payeeId, coin, amount, reference, at],
  );
  await db.query(
    `INSERT INTO balances (payee_id, coin, amount) VALUES ($1, $2, $3)
     ON CONFLICT (payee_id, coin) DO UPDATE SET amount = balances.amount + EXCLUDED.amount`,
    [payeeId, coin, amount],
  );
}
