// Drill part (a): kill -9 of the pool under load, restart on the same dataDir and database, and
// count what the miners were told against what was stored.
import type { CoinId } from '../../apps/server/src/config/index.js';
import type { Database } from '../../apps/server/src/db/index.js';
import { DrillMiner } from './drill-miner.js';
import { settle, storedByWorker, type DrillPool } from './drill-pool.js';

export interface KillCycle {
  killedAfterSeconds: number;
  acknowledged: number;
  /** Every share stored for the cycle's workers (may include shares sent but not yet answered at the kill). */
  stored: number;
  storedOfAcknowledged: number;
  lost: number;
  /** From the kill to the first `true` from the restarted pool (restart included); null if none. */
  resumeSeconds: number | null;
}

export interface KillDrill {
  coin: CoinId;
  db: Database;
  pool: DrillPool;
  port: number;
  address: string;
  connections: number;
  /** The kill comes at a random moment in [1, seconds] s of load. */
  seconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function killCycle(drill: KillDrill, cycle: number): Promise<KillCycle> {
  const prefix = `k${cycle}m`;
  const miners = Array.from(
    { length: drill.connections },
    (_, i) => new DrillMiner(drill.coin, `${drill.address}.${prefix}${i}`, drill.port),
  );
  for (const miner of miners) miner.start();
  const loadStarted = Date.now();
  await sleep(1_000 + Math.random() * Math.max(0, drill.seconds - 1) * 1_000);
  await drill.pool.kill();
  const killedAt = Date.now();
  // Acknowledged = every `true` the pool sent before it died: replies already on their way are
  // read before the connection's end, so give the miners a moment to read to the end.
  await sleep(500);
  const acknowledgedBy = miners.map((m) => m.acknowledged);
  await Promise.all(miners.map((m) => m.stop()));

  const probe = new DrillMiner(drill.coin, `${drill.address}.k${cycle}probe`, drill.port);
  probe.start();
  await drill.pool.start();
  while (probe.acknowledged === 0 && Date.now() - killedAt < 120_000) await sleep(50);
  const resumeSeconds = probe.acks[0] ? (probe.acks[0].at - killedAt) / 1000 : null;
  await probe.stop();

  await settle(drill.db, prefix);
  const stored = await storedByWorker(drill.db, prefix);
  let storedOfAcknowledged = 0;
  let storedAll = 0;
  miners.forEach((miner, i) => {
    const n = stored.get(miner.login.slice(drill.address.length + 1)) ?? 0;
    storedAll += n;
    storedOfAcknowledged += Math.min(n, acknowledgedBy[i] ?? 0);
  });
  const acknowledged = acknowledgedBy.reduce((a, b) => a + b, 0);
  return {
    killedAfterSeconds: (killedAt - loadStarted) / 1000,
    acknowledged,
    stored: storedAll,
    storedOfAcknowledged,
    lost: Math.max(0, acknowledged - storedOfAcknowledged),
    resumeSeconds,
  };
}
