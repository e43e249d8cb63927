// The drill's pool and what it measures in the database: a real `manjam start --role stratum`
// process on the drill's node and PostgreSQL schema, restartable on the same dataDir, database and
// Stratum port; shares stored per worker name.
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import { parseConfig } from '../../apps/server/src/config/index.js';
import type { Database } from '../../apps/server/src/db/index.js';
import type { DevChain } from '../../apps/server/src/coins/bitcoin/devchain/index.js';
import {
  processConfig,
  startPoolProcess,
  type PoolProcess,
} from '../../apps/server/test/support/pool-processes.js';

/** Share difficulty on regtest: low enough that shares come fast, most hashes are not blocks. */
export const DRILL_DIFFICULTY: Record<BitcoinFamilyCoin, number> = { BTC: 3e-10, LTC: 2e-5 };

/** `chains.<coin>.nodeSilenceSeconds` when this build knows the setting (unknown keys are dropped), else undefined. */
export function silenceSetting(
  coin: BitcoinFamilyCoin,
  seconds: number,
): Record<string, unknown> | undefined {
  try {
    const parsed = parseConfig({ chains: { [coin]: { nodeSilenceSeconds: seconds } } });
    return 'nodeSilenceSeconds' in parsed.chains[coin] ? { nodeSilenceSeconds: seconds } : undefined;
  } catch {
    return undefined;
  }
}

export interface DrillPoolOptions {
  coin: BitcoinFamilyCoin;
  chain: DevChain;
  databaseUrl: string;
  dataDir: string;
  stratumPort: number;
  chainExtra: Record<string, unknown> | undefined;
}

export class DrillPool {
  private process: PoolProcess | undefined;

  constructor(private readonly options: DrillPoolOptions) {}

  async start(): Promise<void> {
    const { coin, chain, databaseUrl, dataDir, stratumPort, chainExtra } = this.options;
    const config = processConfig({
      coin,
      node: chain,
      databaseUrl,
      dataDir,
      stratumPort,
      difficulty: DRILL_DIFFICULTY[coin],
      ...(chainExtra ? { chain: chainExtra } : {}),
    });
    this.process = await startPoolProcess('stratum', config);
  }

  /** kill -9; resolves once the process is gone. */
  async kill(): Promise<void> {
    const running = this.process;
    this.process = undefined;
    if (!running) return;
    running.child.kill('SIGKILL');
    await running.exited;
  }

  /** A clean stop (SIGTERM); resolves with the exit code. */
  async stop(): Promise<number | undefined> {
    const running = this.process;
    this.process = undefined;
    if (!running) return undefined;
    running.child.kill('SIGTERM');
    return running.exited;
  }

  output(): string {
    return this.process?.output() ?? '';
  }
}

/** Shares stored per worker name, for the worker names starting with `prefix`. */
export async function storedByWorker(db: Database, prefix: string): Promise<Map<string, number>> {
  const result = await db.query<{ name: string; n: bigint }>(
    `SELECT w.name, sum(s.share_count)::bigint AS n FROM shares s JOIN workers w ON w.id = s.worker_id
     WHERE starts_with(w.name, $1) GROUP BY w.name`,
    [prefix],
  );
  return new Map(result.rows.map((r) => [r.name, Number(r.n)]));
}

/** Shares stored for worker names starting with `prefix`, created after `after` (and before `before`). */
export async function storedBetween(
  db: Database,
  prefix: string,
  after: Date,
  before: Date,
): Promise<number> {
  const result = await db.query<{ n: bigint }>(
    `SELECT COALESCE(sum(s.share_count), 0)::bigint AS n FROM shares s JOIN workers w ON w.id = s.worker_id
     WHERE starts_with(w.name, $1) AND s.created_at > $2 AND s.created_at < $3`,
    [prefix, after.toISOString(), before.toISOString()],
  );
  return Number(result.rows[0]?.n ?? 0n);
}

/** Waits until the stored count for `prefix` has not changed for `quietMs` (at most `maxMs`). */
export async function settle(db: Database, prefix: string, quietMs = 2_000, maxMs = 30_000): Promise<void> {
  const total = async () => [...(await storedByWorker(db, prefix)).values()].reduce((a, b) => a + b, 0);
  const started = Date.now();
  let last = await total();
  let since = Date.now();
  while (Date.now() - since < quietMs && Date.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await total();
    if (now !== last) [last, since] = [now, Date.now()];
  }
}
