import type { Queryable } from '../types.js';

export interface MinerRow {
  id: number;
  userId: number;
  name: string;
  type: string;
  algorithm: string;
  workerName: string;
  createdAt: Date;
}

interface RawMiner {
  id: number;
  user_id: number;
  name: string;
  type: string;
  algorithm: string;
  worker_name: string;
  created_at: Date;
}

const toMiner = (r: RawMiner): MinerRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  name: r.name,
  type: r.type,
  algorithm: r.algorithm,
  workerName: r.worker_name,
  createdAt: new Date(r.created_at),
});

const SELECT = 'SELECT id, user_id, name, type, algorithm, worker_name, created_at FROM miners';

export interface NewMiner {
  name: string;
  type: string;
  algorithm: string;
  workerName: string;
}

/** Devices users declare (the service joins them with live Stratum workers by worker name). */
export class MinersRepository {
  constructor(private readonly db: Queryable) {}

  async listForUser(userId: number, type: string | null): Promise<MinerRow[]> {
    const result = await this.db.query<RawMiner>(
      `${SELECT} WHERE user_id = $1 AND ($2::text IS NULL OR type = $2) ORDER BY created_at, id`,
      [userId, type],
    );
    return result.rows.map(toMiner);
  }

  async findForUser(userId: number, id: number): Promise<MinerRow | undefined> {
    const result = await this.db.query<RawMiner>(`${SELECT} WHERE user_id = $1 AND id = $2`, [userId, id]);
    return result.rows[0] && toMiner(result.rows[0]);
  }

  async insert(userId: number, miner: NewMiner): Promise<number> {
    const result = await this.db.query<{ id: number }>(
      'INSERT INTO miners (user_id, name, type, algorithm, worker_name) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [userId, miner.name, miner.type, miner.algorithm, miner.workerName],
    );
    const row = result.rows[0];
    if (!row) throw new Error('miner insert returned nothing');
    return Number(row.id);
  }

  /** Answers false when the miner is not the user's. */
  async update(userId: number, id: number, patch: Partial<NewMiner>): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE miners SET name = COALESCE($3, name), type = COALESCE($4, type), algorithm = COALESCE($5, algorithm),
              worker_name = COALESCE($6, worker_name), updated_at = now()
        WHERE user_id = $1 AND id = $2`,
      [userId, id, patch.name ?? null, patch.type ?? null, patch.algorithm ?? null, patch.workerName ?? null],
    );
    return result.rowCount > 0;
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const result = await this.db.query('DELETE FROM miners WHERE user_id = $1 AND id = $2', [userId, id]);
    return result.rowCount > 0;
  }
}
