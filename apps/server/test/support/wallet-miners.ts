// Miners of the multi-process tests: each logs in as `<wallet address>.<worker>`, submits shares
// that are not blocks and counts its `true` answers; the database then says what was stored and
// credited per worker.
import { expect } from 'vitest';
import type { Queryable } from '../../src/db/types.js';
import { StratumTestClient } from './coins/bitcoin/stratum/client.js';

export interface WalletMiner {
  /** `<address>.<worker>` */
  login: string;
  worker: string;
  client: StratumTestClient;
  acknowledged: number;
}

export async function connectWalletMiner(
  port: number,
  address: string,
  worker: string,
  acknowledged = 0,
): Promise<WalletMiner> {
  const login = `${address}.${worker}`;
  const client = await StratumTestClient.connect(port);
  expect((await client.subscribe()).error).toBeNull();
  expect((await client.authorize(login)).result).toBe(true);
  await client.waitForJob();
  return { login, worker, client, acknowledged };
}

/** Submits `n` shares that are not blocks on the miner's latest job; counts the `true` answers. */
export async function mineNonBlocks(miner: WalletMiner, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const job = miner.client.job;
    if (!job) throw new Error('no job');
    const share = miner.client.findShare(job, 'sha256d', {
      accept: (b, j) => b.hashValue > j.template.networkTarget,
    });
    const reply = await miner.client.submit(miner.login, share);
    if (reply.result === true) miner.acknowledged++;
  }
}

/** Shares stored and credited per worker name. */
export async function storedPerWorker(
  db: Queryable,
): Promise<Map<string, { stored: number; credited: number }>> {
  const result = await db.query<{ name: string; stored: bigint; credited: bigint }>(
    `SELECT w.name, sum(s.share_count)::bigint AS stored,
            COALESCE(sum(s.share_count) FILTER (WHERE s.credited), 0)::bigint AS credited
     FROM shares s JOIN workers w ON w.id = s.worker_id GROUP BY w.name`,
  );
  return new Map(
    result.rows.map((r) => [r.name, { stored: Number(r.stored), credited: Number(r.credited) }]),
  );
}

/** Every miner's acknowledged shares are stored and credited (each share once: in one row, credited once). */
export async function allStoredAndCredited(db: Queryable, miners: readonly WalletMiner[]): Promise<boolean> {
  const rows = await storedPerWorker(db);
  return miners.every(
    (m) => rows.get(m.worker)?.stored === m.acknowledged && rows.get(m.worker)?.credited === m.acknowledged,
  );
}
