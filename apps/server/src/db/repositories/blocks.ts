import type { Queryable } from '../types.js';
import type { ShareScheme } from './shares.js';

export const FOUND_BLOCK_STATUSES = ['submitted', 'rejected', 'pending', 'confirmed', 'orphaned'] as const;
export type FoundBlockStatus = (typeof FOUND_BLOCK_STATUSES)[number];

export interface NewBlock {
  coin: string;
  height: number;
  hash: string;
  finderWorkerId: number | null;
  finderPayeeId: number | null;
  scheme: ShareScheme;
  reward: bigint;
  subsidy: bigint;
  fees: bigint;
  networkDifficulty: number;
  shareDifficulty: number;
  status: FoundBlockStatus;
  submitResult: string | null;
  foundAt: Date;
}

export interface BlockRow extends NewBlock {
  id: number;
}

interface RawBlock {
  id: number;
  coin: string;
  height: number;
  hash: string;
  finder_worker_id: number | null;
  finder_payee_id: number | null;
  scheme: ShareScheme;
  reward: bigint;
  subsidy: bigint;
  fees: bigint;
  network_difficulty: number;
  share_difficulty: number;
  status: FoundBlockStatus;
  submit_result: string | null;
  found_at: Date;
}

const COLUMNS = `id, coin, height, hash, finder_worker_id, finder_payee_id, scheme, reward, subsidy, fees,
  network_difficulty, share_difficulty, status, submit_result, found_at`;

const toBlock = (r: RawBlock): BlockRow => ({
  id: r.id,
  coin: r.coin,
  height: r.height,
  hash: r.hash,
  finderWorkerId: r.finder_worker_id,
  finderPayeeId: r.finder_payee_id,
  scheme: r.scheme,
  reward: BigInt(r.reward),
  subsidy: BigInt(r.subsidy),
  fees: BigInt(r.fees),
  networkDifficulty: Number(r.network_difficulty),
  shareDifficulty: Number(r.share_difficulty),
  status: r.status,
  submitResult: r.submit_result,
  foundAt: new Date(r.found_at),
});

/** Blocks the pool found, recorded whatever the node answered. */
export class BlocksRepository {
  constructor(private readonly db: Queryable) {}

  /** Records a found block; undefined when that hash is already recorded. */
  async insertFound(b: NewBlock): Promise<number | undefined> {
    const result = await this.db.query<{ id: number }>(
      `INSERT INTO blocks (coin, height, hash, finder_worker_id, finder_payee_id, scheme, reward, subsidy, fees,
         network_difficulty, share_difficulty, status, submit_result, found_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (hash) DO NOTHING RETURNING id`,
      [
        b.coin,
        b.height,
        b.hash,
        b.finderWorkerId,
        b.finderPayeeId,
        b.scheme,
        b.reward,
        b.subsidy,
        b.fees,
        b.networkDifficulty,
        b.shareDifficulty,
        b.status,
        b.submitResult,
        b.foundAt.toISOString(),
      ],
    );
    return result.rows[0]?.id;
  }

  async byHash(hash: string): Promise<BlockRow | undefined> {
    const result = await this.db.query<RawBlock>(`SELECT ${COLUMNS} FROM blocks WHERE hash = $1`, [hash]);
    const row = result.rows[0];
    return row ? toBlock(row) : undefined;
  }

  async listRecent(coin: string, limit: number): Promise<BlockRow[]> {
    const result = await this.db.query<RawBlock>(
      `SELECT ${COLUMNS} FROM blocks WHERE coin = $1 ORDER BY height DESC, id DESC LIMIT $2`,
      [coin, limit],
    );
    return result.rows.map(toBlock);
  }
}
