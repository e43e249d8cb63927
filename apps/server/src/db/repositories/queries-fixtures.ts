import type { Queryable } from '../types.js';

let sequence = 0;
const unique = () => `${process.pid}-${++sequence}`;

/**
 * Test and benchmark fixtures: writes the rows Stratum and accounting would write (payees,
 * workers, share_stats, shares, ledger entries, balances, settlements, payouts, blocks, tips).
 */
export class FixtureWriter {
  constructor(private readonly db: Queryable) {}

  async userPayee(userId: number, coin = 'BTC'): Promise<number> {
    const result = await this.db.query<{ id: number }>(
      `INSERT INTO payees (coin, kind, user_id) VALUES ($1, 'user', $2)
       ON CONFLICT (coin, user_id) WHERE kind = 'user' DO UPDATE SET coin = EXCLUDED.coin RETURNING id`,
      [coin, userId],
    );
    return Number(result.rows[0]?.id);
  }

  async walletPayee(address: string, coin = 'BTC'): Promise<number> {
    const result = await this.db.query<{ id: number }>(
      `INSERT INTO payees (coin, kind, address) VALUES ($1, 'wallet', $2)
       ON CONFLICT (coin, address) WHERE kind = 'wallet' DO UPDATE SET coin = EXCLUDED.coin RETURNING id`,
      [coin, address],
    );
    return Number(result.rows[0]?.id);
  }

  async worker(payeeId: number, name: string, opts: { coin?: string; algorithm?: string; lastShareAt?: Date | null; accepted?: number; rejected?: number; stale?: number; type?: string } = {}): Promise<number> {
    const result = await this.db.query<{ id: number }>(
      `INSERT INTO workers (payee_id, coin, name, algorithm, type, last_share_at, accepted_shares, rejected_shares, stale_shares)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [payeeId, opts.coin ?? 'BTC', name, opts.algorithm ?? 'sha256d', opts.type ?? 'asic', opts.lastShareAt ?? null, opts.accepted ?? 0, opts.rejected ?? 0, opts.stale ?? 0],
    );
    return Number(result.rows[0]?.id);
  }

  async shareStat(workerId: number, bucket: Date, accepted: number, acceptedDifficulty: number, rejects: { stale?: number; invalid?: number } = {}): Promise<void> {
    await this.db.query(
      `INSERT INTO share_stats (worker_id, bucket, accepted, accepted_difficulty, stale, invalid) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (worker_id, bucket) DO UPDATE SET accepted = share_stats.accepted + EXCLUDED.accepted,
         accepted_difficulty = share_stats.accepted_difficulty + EXCLUDED.accepted_difficulty`,
      [workerId, bucket, accepted, acceptedDifficulty, rejects.stale ?? 0, rejects.invalid ?? 0],
    );
  }

  async share(workerId: number, payeeId: number, createdAt: Date, difficulty = 1, coin = 'BTC'): Promise<void> {
    await this.db.query(
      `INSERT INTO shares (worker_id, payee_id, coin, difficulty, network_difficulty, height, scheme, created_at)
       VALUES ($1, $2, $3, $4, 1000, 100, 'pps-plus', $5)`,
      [workerId, payeeId, coin, difficulty, createdAt],
    );
  }

  async ledger(payeeId: number, amount: bigint, reason: string, createdAt: Date, coin = 'BTC'): Promise<void> {
    await this.db.query(
      `INSERT INTO ledger_entries (payee_id, coin, amount, reason, reference, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [payeeId, coin, amount, reason, `fixture:${payeeId}:${unique()}`, createdAt],
    );
    await this.db.query(
      `INSERT INTO balances (payee_id, coin, amount) VALUES ($1, $2, $3)
       ON CONFLICT (payee_id, coin) DO UPDATE SET amount = balances.amount + EXCLUDED.amount`,
      [payeeId, coin, amount],
    );
  }

  async settlement(payeeId: number, day: string, amount: bigint, opts: { coin?: string; avgHashrate?: number; difficulty?: number; scheme?: string } = {}): Promise<void> {
    await this.db.query(
      `INSERT INTO settlements (payee_id, coin, day, avg_hashrate, amount, network_difficulty, scheme) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [payeeId, opts.coin ?? 'BTC', day, opts.avgHashrate ?? 1e12, amount, opts.difficulty ?? 36.76e12, opts.scheme ?? 'pps-plus'],
    );
  }

  async payout(payeeId: number, amount: bigint, opts: { coin?: string; status?: string; txid?: string | null; address?: string; createdAt?: Date } = {}): Promise<number> {
    const run = await this.db.query<{ id: bigint }>(
      `INSERT INTO payout_runs (coin, status, comment) VALUES ($1, 'recorded', $2) RETURNING id`,
      [opts.coin ?? 'BTC', `fixture-run-${payeeId}-${unique()}`],
    );
    const result = await this.db.query<{ id: bigint }>(
      `INSERT INTO payouts (run_id, payee_id, coin, address, amount, status, txid, created_at, sent_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id`,
      [run.rows[0]?.id, payeeId, opts.coin ?? 'BTC', opts.address ?? 'bcrt1qfixture', amount, opts.status ?? 'confirmed', opts.txid ?? null, opts.createdAt ?? new Date()],
    );
    return Number(result.rows[0]?.id);
  }

  async block(coin: string, height: number, hash: string, opts: { finderPayeeId?: number | null; status?: string; reward?: bigint; foundAt?: Date } = {}): Promise<void> {
    await this.db.query(
      `INSERT INTO blocks (coin, height, hash, finder_payee_id, scheme, reward, subsidy, fees, network_difficulty, share_difficulty, status, found_at, effort)
       VALUES ($1, $2, $3, $4, 'pps-plus', $5, $5, 0, 1, 1, $6, $7, 0.8)`,
      [coin, height, hash, opts.finderPayeeId ?? null, opts.reward ?? 5_000_000_000n, opts.status ?? 'pending', opts.foundAt ?? new Date()],
    );
  }

  async chainTip(coin: string, height: number, difficulty: number): Promise<void> {
    await this.db.query(
      `INSERT INTO chain_tips (coin, height, hash, network_difficulty) VALUES ($1, $2, $3, $4)
       ON CONFLICT (coin) DO UPDATE SET height = EXCLUDED.height, network_difficulty = EXCLUDED.network_difficulty`,
      [coin, height, `tip-${coin}-${height}`, difficulty],
    );
  }

  /** Bulk: `count` workers "w00001".. for a payee (benchmarks). Answers nothing; ids follow insertion order. */
  async bulkWorkers(payeeId: number, count: number, lastShareAt: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO workers (payee_id, coin, name, algorithm, type, last_share_at, accepted_shares, rejected_shares)
       SELECT $1, 'BTC', 'w' || lpad(g::text, 5, '0'), 'sha256d', 'asic', $3, 1000 + g, g % 7
         FROM generate_series(1, $2::int) AS g`,
      [payeeId, count, lastShareAt],
    );
  }

  /** Bulk: one share_stats row per worker of the payee every `stepMinutes` in [from, to) (ranges must not overlap). */
  async bulkShareStats(payeeId: number, from: Date, to: Date, stepMinutes: number, difficulty: number): Promise<number> {
    const result = await this.db.query(
      `INSERT INTO share_stats (worker_id, bucket, accepted, accepted_difficulty)
       SELECT w.id, t, 4, $5 * (0.5 + (w.id % 10) / 10.0)
         FROM workers w CROSS JOIN generate_series($2::timestamptz, $3::timestamptz - interval '1 minute', make_interval(mins => $4::int)) AS t
        WHERE w.payee_id = $1`,
      [payeeId, from, to, stepMinutes, difficulty],
    );
    return result.rowCount;
  }

  /** Refreshes planner statistics after a bulk load. */
  async analyze(): Promise<void> {
    await this.db.exec('ANALYZE workers; ANALYZE share_stats; ANALYZE payees; ANALYZE ledger_entries');
  }
}
