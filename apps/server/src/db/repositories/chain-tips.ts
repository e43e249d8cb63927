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

  /**
   * Records a height's reward unless one is recorded already (the first template of a height sets
   * it: shares of the height may have been credited at it); answers the height's recorded reward.
   */
  async record(coin: string, height: number, reward: bigint): Promise<bigint> {
    // DO UPDATE to itself, so that RETURNING answers the row that was there.
    const result = await this.db.query<{ reward: string }>(
      `INSERT INTO template_rewards (coin, height, reward) VALUES ($1, $2, $3)
       ON CONFLICT (coin, height) DO UPDATE SET reward = template_rewards.reward
       RETURNING reward::text AS reward`,
      [coin, height, reward.toString()],
    );
    return BigInt(result.rows[0]?.reward ?? reward.toString());
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
