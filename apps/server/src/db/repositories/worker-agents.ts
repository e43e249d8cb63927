import type { DeviceType } from '@manjam/contract';
import type { Queryable } from '../types.js';

export interface WorkerAgent {
  /** shares/types.ts MinerRef.payeeKey */
  payeeKey: string;
  worker: string;
  agent: string;
  deviceType: DeviceType | null;
  seenAt: Date;
}

/**
 * The payee key of `payees p` in SQL, as shares/types.ts minerRef makes it in TypeScript (the
 * same string, so a worker row finds the agent its logins recorded).
 */
export const PAYEE_KEY_SQL = `(p.coin || CASE WHEN p.kind = 'user' THEN ':u:' || p.user_id ELSE ':w:' || p.address END)`;

/** What miners' software said at login (migration 0690). */
export class WorkerAgentsRepository {
  constructor(private readonly db: Queryable) {}

  /** Records each worker's latest agent (one statement for the batch; keys must be distinct). */
  async record(agents: readonly WorkerAgent[]): Promise<void> {
    if (agents.length === 0) return;
    await this.db.query(
      `INSERT INTO worker_agents (payee_key, worker, agent, device_type, seen_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
       ON CONFLICT (payee_key, worker) DO UPDATE SET agent = EXCLUDED.agent,
         device_type = EXCLUDED.device_type, seen_at = EXCLUDED.seen_at`,
      [
        agents.map((a) => a.payeeKey),
        agents.map((a) => a.worker),
        agents.map((a) => a.agent),
        agents.map((a) => a.deviceType),
        agents.map((a) => a.seenAt.toISOString()),
      ],
    );
  }
}
