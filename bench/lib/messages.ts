// Messages between the benchmark's parts: the orchestrator, the pool process and the load workers.
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import type { LoopFigures } from '../../apps/server/src/http/metrics-runtime.js';
import type { WriteCounts } from './counting-database.js';

export interface ServerUsage {
  type: 'usage';
  /** process.cpuUsage() user + system, microseconds (all threads of the pool process). Counters are pool-wide. */
  cpuUs: number;
  rss: number;
  heapUsed: number;
  /** V8's heap with the pages it keeps (heapUsed plus free pages not yet given back). */
  heapTotal: number;
  /** Memory outside the JS heap that JS objects own (Buffers, ArrayBuffers, WebAssembly memory). */
  external: number;
  connections: number;
  accepted: number;
  rejected: Record<string, number>;
  /** Accepted shares in the database (pool-wide), -1 when not asked. */
  persisted: number;
  blocksSubmitted: number;
  /** Rows the pool wrote per table since it started (lib/counting-database.ts). */
  writes: WriteCounts;
  /** Event-loop delay and GC pauses since the last request that reset them. */
  loop: LoopFigures;
}

export interface ServerReady {
  type: 'ready';
  ports: Record<BitcoinFamilyCoin, number>;
  /** A BTC port whose share difficulty no random nonce meets: every share is hashed and rejected. */
  rejectPort: number;
  /** PostgreSQL only: the schema of the pool's tables. */
  schema: string | undefined;
}

export type ServerMessage = ServerReady | ServerUsage | { type: 'error'; message: string };
export type ServerRequest =
  { type: 'usage'; gc: boolean; persisted: boolean; resetLoop?: boolean } | { type: 'stop' };

export interface WorkerSetup {
  port: number;
  host: string;
  coin: BitcoinFamilyCoin;
  login: string;
  /** Each connection its own worker (`<login><thread>_<n>`), as a farm's rigs log in. */
  distinctWorkers?: boolean;
}

export type WorkerCommand =
  | { type: 'connect'; count: number }
  /** `unmined`: shares sent as they come (nonces 0, 1, 2...), not mined to the share target. */
  | { type: 'prepare'; perConnection: number; unmined?: boolean }
  | { type: 'run'; mode: 'max'; seconds: number; depth: number }
  | { type: 'run'; mode: 'rate'; seconds: number; rate: number }
  | { type: 'tip'; prevhash: string }
  | { type: 'close' };

export interface RunResult {
  type: 'ran';
  seconds: number;
  sent: number;
  /** Replies received before the deadline (the rate figure) and after it (drained). */
  acceptedInTime: number;
  accepted: number;
  rejected: Record<string, number>;
  unanswered: number;
  /** Submits that found no precomputed share left (the phase ran out of shares). */
  starved: number;
  /** Submit-to-reply latency of every answered submit, milliseconds. */
  latencies: Float64Array;
}

export type WorkerReply =
  | { type: 'connected'; ok: number; failed: number; firstError: string | undefined }
  | { type: 'prepared'; shares: number; tried: number; seconds: number }
  | RunResult
  | { type: 'closed' }
  /** Per connection, when its first clean job on `prevhash` arrived (wall-clock ms; NaN: not yet). */
  | { type: 'tip'; times: Float64Array }
  | { type: 'error'; message: string };
