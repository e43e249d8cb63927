// Test fixtures: users, payees, workers, shares and found blocks written the way the Stratum side
// writes them, so accounting tests exercise the same rows production does.
import { createHash } from 'node:crypto';
import { decimalsOf, parseCoinAmount } from '@manjam/protocol';
import { bech32 } from 'bech32';
import type { Queryable } from '../../../src/db/index.js';

export interface MinerFixture {
  payeeId: number;
  workerId: number;
  userId: number | null;
}

let serial = 0;
const unique = (): string => `${process.pid}-${Date.now()}-${++serial}`;

export async function createUserMiner(
  db: Queryable,
  coin: string,
  opts: {
    walletAddress?: string | null;
    threshold?: '0.001' | '0.01' | '0.1';
    payoutAddress?: string | null;
    pending?: { address: string; effectiveAt: Date };
  } = {},
): Promise<MinerFixture> {
  const name = `u${unique().replace(/-/g, '')}`;
  const user = await db.query<{ id: number }>(
    "INSERT INTO users (username, email, password_hash, wallet_address) VALUES ($1, $2, 'x', $3) RETURNING id",
    [name, `${name}@example.com`, opts.walletAddress ?? null],
  );
  const userId = user.rows[0]?.id;
  if (userId === undefined) throw new Error('user insert failed');
  if (opts.threshold || opts.payoutAddress || opts.pending) {
    // The account's payout settings for the miner's coin (threshold in that coin's base units).
    await db.query(
      `INSERT INTO user_payout_settings (user_id, coin, threshold, address, pending_address, pending_effective_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        userId,
        coin,
        parseCoinAmount(opts.threshold ?? '0.01', decimalsOf(coin)),
        opts.payoutAddress ?? null,
        opts.pending?.address ?? null,
        opts.pending?.effectiveAt.toISOString() ?? null,
      ],
    );
  }
  const payee = await db.query<{ id: number }>(
    "INSERT INTO payees (coin, kind, user_id) VALUES ($1, 'user', $2) RETURNING id",
    [coin, userId],
  );
  const payeeId = payee.rows[0]?.id;
  if (payeeId === undefined) throw new Error('payee insert failed');
  return { payeeId, workerId: await createWorker(db, coin, payeeId), userId };
}

export async function createWalletMiner(db: Queryable, coin: string, address: string): Promise<MinerFixture> {
  const payee = await db.query<{ id: number }>(
    "INSERT INTO payees (coin, kind, address) VALUES ($1, 'wallet', $2) RETURNING id",
    [coin, address],
  );
  const payeeId = payee.rows[0]?.id;
  if (payeeId === undefined) throw new Error('payee insert failed');
  return { payeeId, workerId: await createWorker(db, coin, payeeId), userId: null };
}

async function createWorker(db: Queryable, coin: string, payeeId: number): Promise<number> {
  const algorithm = coin === 'BTC' ? 'sha256' : 'scrypt';
  const worker = await db.query<{ id: number }>(
    'INSERT INTO workers (payee_id, coin, name, algorithm) VALUES ($1, $2, $3, $4) RETURNING id',
    [payeeId, coin, `rig${unique()}`, algorithm],
  );
  const id = worker.rows[0]?.id;
  if (id === undefined) throw new Error('worker insert failed');
  return id;
}

export interface ShareFixture {
  difficulty: number;
  networkDifficulty: number;
  height: number;
  scheme: 'pps-plus' | 'pplns' | 'solo';
  at: Date;
}

/** One accepted share (and its share_stats minute), as the share writer records it. */
export async function insertShare(
  db: Queryable,
  coin: string,
  miner: MinerFixture,
  share: ShareFixture,
): Promise<void> {
  await db.query(
    `INSERT INTO shares (worker_id, payee_id, coin, difficulty, network_difficulty, height, scheme, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      miner.workerId,
      miner.payeeId,
      coin,
      share.difficulty,
      share.networkDifficulty,
      share.height,
      share.scheme,
      share.at.toISOString(),
    ],
  );
  await db.query(
    `INSERT INTO share_stats (worker_id, bucket, accepted, accepted_difficulty) VALUES ($1, date_trunc('minute', $2::timestamptz), 1, $3)
     ON CONFLICT (worker_id, bucket) DO UPDATE SET accepted = share_stats.accepted + 1,
       accepted_difficulty = share_stats.accepted_difficulty + EXCLUDED.accepted_difficulty`,
    [miner.workerId, share.at.toISOString(), share.difficulty],
  );
}

export interface BlockFixture {
  height: number;
  hash: string;
  scheme: 'pps-plus' | 'pplns' | 'solo';
  reward: bigint;
  subsidy: bigint;
  fees: bigint;
  networkDifficulty: number;
  finder: MinerFixture | null;
  at: Date;
  status?: 'pending' | 'submitted';
}

/** A found block accepted by the node, as the Stratum side records it. */
export async function insertBlock(db: Queryable, coin: string, block: BlockFixture): Promise<number> {
  const result = await db.query<{ id: number }>(
    `INSERT INTO blocks (coin, height, hash, finder_worker_id, finder_payee_id, scheme, reward, subsidy, fees,
       network_difficulty, share_difficulty, status, found_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12) RETURNING id`,
    [
      coin,
      block.height,
      block.hash,
      block.finder?.workerId ?? null,
      block.finder?.payeeId ?? null,
      block.scheme,
      block.reward,
      block.subsidy,
      block.fees,
      block.networkDifficulty,
      block.status ?? 'pending',
      block.at.toISOString(),
    ],
  );
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('block insert failed');
  return id;
}

/** A valid regtest P2WPKH address (rb1...) derived from a label, for payout tests without a node. */
export function regtestAddress(label: string): string {
  const program = createHash('sha256').update(label).digest().subarray(0, 20);
  return bech32.encode('rb', [0, ...bech32.toWords(program)]);
}
