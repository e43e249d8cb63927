// Drill part (b): the node goes silent under mining, by a hang (SIGSTOP past the silence limit,
// then SIGCONT) and by a death (kill -9; a supervisor may bring it back). Counts what the pool
// still acknowledged and stored for work that could not reach a node, and how long until shares
// are accepted again on a fresh job.
import { readFileSync } from 'node:fs';
import type { CoinId } from '../../apps/server/src/config/index.js';
import type { Database } from '../../apps/server/src/db/index.js';
import type { DevChain, RpcEndpoint } from '../../apps/server/src/coins/bitcoin/devchain/index.js';
import { DrillMiner } from './drill-miner.js';
import { settle, storedBetween } from './drill-pool.js';

export type Silence = 'hang' | 'kill';

export interface NodeCycle {
  silence: Silence;
  /** Shares answered `true` between the node going silent and it answering again (or the end). */
  acknowledgedWhileSilent: number;
  /** Shares stored with a time past the silence limit and before the node answered again. */
  storedPastLimit: number;
  /** From the node answering again to the first `true` on a job sent after that; null if none. */
  resumeSeconds: number | null;
  /** From the node going silent to it answering RPC again; null if it did not within the wait. */
  nodeBackSeconds: number | null;
}

export interface NodeDrill {
  coin: CoinId;
  chain: DevChain;
  db: Database;
  port: number;
  address: string;
  miners: number;
  /** The pool's node silence limit (configured, or the value measured against). */
  limitSeconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RESUME_WAIT_MS = 60_000;

/** The chain's node processes: litecoind for LTC; for BTC the runner, which hosts bcoin. */
function nodePids(chain: DevChain): number[] {
  const comm = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      return '';
    }
  };
  const pids = chain.processIds();
  return chain.coin === 'LTC' ? pids.filter((pid) => comm(pid) === 'litecoind') : pids;
}

async function rpcAnswers(rpc: RpcEndpoint): Promise<boolean> {
  try {
    const response = await fetch(rpc.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${rpc.user}:${rpc.password}`).toString('base64')}`,
      },
      body: JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'getblockcount', params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

export async function nodeCycle(drill: NodeDrill, silence: Silence): Promise<NodeCycle> {
  const prefix = `n${silence}m`;
  const miners = Array.from(
    { length: drill.miners },
    (_, i) => new DrillMiner(drill.coin, `${drill.address}.${prefix}${i}`, drill.port),
  );
  for (const miner of miners) miner.start();
  await sleep(3_000);
  const pids = nodePids(drill.chain);
  const silentAt = Date.now();
  signalAll(pids, silence === 'hang' ? 'SIGSTOP' : 'SIGKILL');
  // A hung node is woken after the limit + 5 s; a killed one comes back when (if) its supervisor
  // restarts it. Either way the node counts as back from its first RPC answer, probed all along.
  const wakeAt = silentAt + (drill.limitSeconds + 5) * 1_000;
  let woken = silence !== 'hang';
  let backAt: number | undefined;
  while (backAt === undefined && Date.now() - wakeAt < RESUME_WAIT_MS) {
    if (!woken && Date.now() >= wakeAt) {
      signalAll(pids, 'SIGCONT');
      woken = true;
    }
    if (await rpcAnswers(drill.chain.rpc)) backAt = Date.now();
    else await sleep(250);
  }
  const end = backAt ?? Date.now();
  // Back before the limit: work never stopped, so any job counts; after it, only a fresh one.
  const paused = backAt !== undefined && backAt - silentAt >= drill.limitSeconds * 1_000;
  const firstFresh = backAt === undefined ? undefined : await firstFreshAck(miners, backAt, paused);
  await Promise.all(miners.map((m) => m.stop()));
  await settle(drill.db, prefix);
  const limitAt = new Date(silentAt + drill.limitSeconds * 1_000);
  return {
    silence,
    acknowledgedWhileSilent: miners.reduce(
      (n, m) => n + m.acks.filter((a) => a.at > silentAt && a.at < end).length,
      0,
    ),
    storedPastLimit: await storedBetween(drill.db, prefix, limitAt, new Date(end)),
    resumeSeconds: firstFresh === undefined || backAt === undefined ? null : (firstFresh - backAt) / 1000,
    nodeBackSeconds: backAt === undefined ? null : (backAt - silentAt) / 1000,
  };
}

/** Waits (up to RESUME_WAIT_MS) for a `true` after `since` (on a job sent after it when `freshJob`); its time, or undefined. */
async function firstFreshAck(
  miners: DrillMiner[],
  since: number,
  freshJob: boolean,
): Promise<number | undefined> {
  const deadline = since + RESUME_WAIT_MS;
  for (;;) {
    const fresh = miners.flatMap((m) =>
      m.acks.filter((a) => (!freshJob || a.jobAt > since) && a.at > since).map((a) => a.at),
    );
    if (fresh.length > 0) return Math.min(...fresh);
    if (Date.now() > deadline) return undefined;
    await sleep(100);
  }
}
