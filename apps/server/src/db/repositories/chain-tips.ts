import type { Queryable } from '../types.js';

export interface ChainTip {
  coin: string;
  height: number;
  hash: string;
  /** Network difficulty in the coin algorithm's Stratum unit. */
  networkDifficulty: number;
  updatedAt: Date;
}

/** The last tip the pool mined on, per coin (for the API's network figures). */
export class ChainTipsRepository {
  constructor(private readonly db: Queryable) {}

  async upsert(tip: Omit<ChainTip, 'updatedAt'>): Promise<void> {
    await this.db.query(
      `INSERT INTO chain_tips (coin, height, hash, network_difficulty, updated_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (coin) DO UPDATE SET height = EXCLUDED.height, hash = EXCLUDED.hash,
         network_difficulty = EXCLUDED.network_difficulty, updated_at = now()`,
      [tip.coin, tip.height, tip.hash, tip.networkDifficulty],
    );
  }

  async get(coin: string): Promise<ChainTip | undefined> {
    const result = await this.db.query<{
      coin: string;
      height: number;
      hash: string;
      network_difficulty: number;
      updated_at: Date;
    }>('SELECT coin, height, hash, network_difficulty, updated_at FROM chain_tips WHERE coin = $1', [coin]);
    const r = result.rows[0];
    return r
      ? {
          coin: r.coin,
          height: r.height,
          hash: r.hash,
          networkDifficulty: Number(r.network_difficulty),
          updatedAt: new Date(r.updated_at),
        }
      : undefined;
  }
}

/** The block reward of the template mined at each height (XMR: expected_reward), for PPS credits. */
export class TemplateRewardsRepository {
  constructor(private readonly db: Queryable) {}

  /** The first template of a height sets its reward (a refreshed template keeps the credited value). */
  async record(coin: string, height: number, reward: bigint): Promise<void> {
    await this.db.query(
      `INSERT INTO template_rewards (coin, height, reward) VALUES ($1, $2, $3)
       ON CONFLICT (coin, height) DO NOTHING`,
      [coin, height, reward.toString()],
    );
  }

  async get(coin: string, height: number): Promise<bigint | undefined> {
    const result = await this.db.query<{ reward: string }>(
      'SELECT reward::text AS reward FROM template_rewards WHERE coin = $1 AND height = $2',
      [coin, height],
    );
    const row = result.rows[0];
    return row ? BigInt(row.reward) : undefined;
  }
}
