import { algorithmOf, isCoin } from '@manjam/protocol';
import type { Queryable } from '../../../src/db/types.js';
import { PayeesRepository } from '../../../src/db/repositories/payees.js';

let sequence = 0;
const unique = () => `${process.pid}-${++sequence}`;

export interface FixtureUser {
  username: string;
  email?: string;
  walletAddress?: string | null;
  language?: 'en' | 'ar';
  notifications?: boolean;
  emailAlerts?: boolean;
  /** A payout threshold of one coin, in its base units (user_payout_settings). */
  payoutThreshold?: { coin: string; units: bigint };
}

/**
 * The one fixture builder of the tests and benchmarks: writes the rows sign-up, Stratum and
 * accounting would write (users, payees, workers, share_stats, shares, ledger entries, balances,
 * settlements, payouts, blocks, tips). Payees go through PayeesRepository, as Stratum's do.
 * (accounting/testing/fixtures.ts still keeps a writer of its own for the accounting suites.)
 */
export class FixtureWriter {
  private readonly payees: PayeesRepository;

  constructor(private readonly db: Queryable) {
    this.payees = new PayeesRepository(db);
  }

  /** A user with settings (no usable password: tests that sign in register through the API). */
  async user(user: FixtureUser): Promise<number> {
    const inserted = await this.db.query<{ id: number }>(
      'INSERT INTO users (username, email, password_hash, wallet_address) VALUES ($1, $2, $3, $4) RETURNING id',
      [
        user.username,
        user.email ?? `${user.username}@example.com`,
        'not-a-real-hash',
        user.walletAddress ?? null,
      ],
    );
    const id = inserted.rows[0]?.id;
    if (id === undefined) throw new Error('user not created');
    await this.db.query(
      `INSERT INTO user_settings (user_id, language, notifications, email_alerts) VALUES ($1, $2, $3, $4)`,
      [id, user.language ?? 'en', user.notifications ?? true, user.emailAlerts ?? false],
    );
    if (user.payoutThreshold)
      await this.db.query('INSERT INTO user_payout_settings (user_id, coin, threshold) VALUES ($1, $2, $3)', [
        id,
        user.payoutThreshold.coin,
        user.payoutThreshold.units,
      ]);
    return Number(id);
  }

  userPayee(userId: number, coin = 'BTC'): Promise<number> {
    return this.payees.ensureUser(coin, userId);
  }

  walletPayee(address: string, coin = 'BTC'): Promise<number> {
    return this.payees.ensureWallet(coin, address);
  }

  /** The payee of an account or of a wallet address. */
  payee(coin: string, owner: { userId: number } | { address: string }): Promise<number> {
    return 'userId' in owner ? this.userPayee(owner.userId, coin) : this.walletPayee(owner.address, coin);
  }

  /** A worker; first seen when it last shared (else now), on its coin's algorithm unless told. */
  async worker(
    payeeId: number,
    name: string,
    opts: {
      coin?: string;
      algorithm?: string;
      lastShareAt?: Date | null;
      accepted?: number;
      rejected?: number;
      stale?: number;
      type?: string;
    } = {},
  ): Promise<number> {
    const coin = opts.coin ?? 'BTC';
    const algorithm = opts.algorithm ?? (isCoin(coin) ? algorithmOf(coin) : 'sha256d');
    const result = await this.db.query<{ id: number }>(
      `INSERT INTO workers (payee_id, coin, name, algorithm, type, last_share_at, accepted_shares, rejected_shares, stale_shares, first_seen_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, coalesce($6, now())) RETURNING id`,
      [
        payeeId,
        coin,
        name,
        algorithm,
        opts.type ?? 'asic',
        opts.lastShareAt ?? null,
        opts.accepted ?? 0,
        opts.rejected ?? 0,
        opts.stale ?? 0,
      ],
    );
    return Number(result.rows[0]?.id);
  }

  async lastShare(workerId: number, at: Date | null): Promise<void> {
    await this.db.query('UPDATE workers SET last_share_at = $2 WHERE id = $1', [workerId, at]);
  }

  /** Per-minute share stats: `perMinute` accepted difficulty each minute in [from, to). */
  async shareMinutes(
    workerId: number,
    from: Date,
    to: Date,
    perMinute: { accepted: number; difficulty: number; rejected?: number },
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO share_stats (worker_id, bucket, accepted, accepted_difficulty, low_difficulty)
       SELECT $1, b, $4, $5, $6 FROM generate_series(date_trunc('minute', $2::timestamptz), $3::timestamptz - interval '1 minute', interval '1 minute') AS b
       ON CONFLICT (worker_id, bucket) DO UPDATE SET accepted = EXCLUDED.accepted, accepted_difficulty = EXCLUDED.accepted_difficulty,
         low_difficulty = EXCLUDED.low_difficulty`,
      [workerId, from, to, perMinute.accepted, perMinute.difficulty, perMinute.rejected ?? 0],
    );
  }

  async shareStat(
    workerId: number,
    bucket: Date,
    accepted: number,
    acceptedDifficulty: number,
    rejects: { stale?: number; invalid?: number } = {},
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO share_stats (worker_id, bucket, accepted, accepted_difficulty, stale, invalid) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (worker_id, bucket) DO UPDATE SET accepted = share_stats.accepted + EXCLUDED.accepted,
         accepted_difficulty = share_stats.accepted_difficulty + EXCLUDED.accepted_difficulty`,
      [workerId, bucket, accepted, acceptedDifficulty, rejects.stale ?? 0, rejects.invalid ?? 0],
    );
  }

  async share(
    workerId: number,
    payeeId: number,
    createdAt: Date,
    difficulty = 1,
    coin = 'BTC',
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO shares (worker_id, payee_id, coin, difficulty, network_difficulty, height, scheme, created_at)
       VALUES ($1, $2, $3, $4, 1000, 100, 'pps-plus', $5)`,
      [workerId, payeeId, coin, difficulty, createdAt],
    );
  }

  async ledger(
    payeeId: number,
    amount: bigint,
    reason: string,
    createdAt: Date,
    coin = 'BTC',
  ): Promise<void> {
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

  async settlement(
    payeeId: number,
    day: string,
    amount: bigint,
    opts: { coin?: string; avgHashrate?: number; difficulty?: number; scheme?: string } = {},
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO settlements (payee_id, coin, day, avg_hashrate, amount, network_difficulty, scheme) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        payeeId,
        opts.coin ?? 'BTC',
        day,
        opts.avgHashrate ?? 1e12,
        amount,
        opts.difficulty ?? 36.76e12,
        opts.scheme ?? 'pps-plus',
      ],
    );
  }

  /**
   * A payout in its own run; a 'sent' payout's run is sent too, at `createdAt`, with the txid; a
   * 'failed' payout's run failed with `failure` (default: the wallet was short of funds).
   */
  async payout(
    payeeId: number,
    amount: bigint,
    opts: {
      coin?: string;
      status?: string;
      txid?: string | null;
      address?: string;
      createdAt?: Date;
      failure?: string;
    } = {},
  ): Promise<number> {
    const sent = opts.status === 'sent';
    const failed = opts.status === 'failed';
    const run = await this.db.query<{ id: bigint }>(
      `INSERT INTO payout_runs (coin, status, comment, txid, created_at, sent_at, failure)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $2 = 'sent' THEN $5::timestamptz END, $6) RETURNING id`,
      [
        opts.coin ?? 'BTC',
        sent ? 'sent' : failed ? 'failed' : 'recorded',
        `fixture-run-${payeeId}-${unique()}`,
        sent ? (opts.txid ?? null) : null,
        opts.createdAt ?? new Date(),
        failed ? (opts.failure ?? 'wallet-short') : null,
      ],
    );
    const result = await this.db.query<{ id: bigint }>(
      `INSERT INTO payouts (run_id, payee_id, coin, address, amount, status, txid, created_at, sent_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id`,
      [
        run.rows[0]?.id,
        payeeId,
        opts.coin ?? 'BTC',
        opts.address ?? 'bcrt1qfixture',
        amount,
        opts.status ?? 'confirmed',
        opts.txid ?? null,
        opts.createdAt ?? new Date(),
      ],
    );
    return Number(result.rows[0]?.id);
  }

  async block(
    coin: string,
    height: number,
    hash: string,
    opts: { finderPayeeId?: number | null; status?: string; reward?: bigint; foundAt?: Date } = {},
  ): Promise<number> {
    const result = await this.db.query<{ id: bigint }>(
      `INSERT INTO blocks (coin, height, hash, finder_payee_id, scheme, reward, subsidy, fees, network_difficulty, share_difficulty, status, found_at, effort)
       VALUES ($1, $2, $3, $4, 'pps-plus', $5, $5, 0, 1, 1, $6, $7, 0.8) RETURNING id`,
      [
        coin,
        height,
        hash,
        opts.finderPayeeId ?? null,
        opts.reward ?? 5_000_000_000n,
        opts.status ?? 'pending',
        opts.foundAt ?? new Date(),
      ],
    );
    return Number(result.rows[0]?.id);
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
  async bulkShareStats(
    payeeId: number,
    from: Date,
    to: Date,
    stepMinutes: number,
    difficulty: number,
  ): Promise<number> {
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
