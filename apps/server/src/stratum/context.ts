import type { Algorithm, CoinParams } from '@manjam/protocol';
import type { Logger } from 'pino';
import type { CoinId, Config, PayoutScheme, StratumPortConfig } from '../config/index.js';
import type { PoolEvents } from '../events.js';
import type { HashrateTracker } from '../shares/hashrate.js';
import type { ShareSink } from '../shares/sink.js';
import type { LoginResolver } from './auth.js';
import type { BanJudge } from './ban-judge.js';
import type { BanList } from './bans.js';
import type { ExtranonceAllocator } from './extranonce.js';
import type { FairWork } from './fair-work.js';
import type { JobManager } from './jobs.js';
import type { ScryptPool } from './pow-pool.js';
import type { Session } from './session.js';
import type { Sha256dQueue } from './sha256d-queue.js';
import type { SubmitContext } from './submit.js';

/** Reasons a submit is refused, as counted in stats (database reasons plus 24/25/busy). */
export const REJECTION_KINDS = [
  'stale',
  'duplicate',
  'low_difficulty',
  'invalid',
  'unauthorized',
  'not_subscribed',
  'busy',
] as const;
export type RejectionKind = (typeof REJECTION_KINDS)[number];

/** What every session of the process shares. */
export interface PoolRuntime {
  config: Config;
  logger: Logger;
  events: PoolEvents;
  /** The local journal writer, or the JetStream share log on a regional node. */
  writer: ShareSink;
  allocator: ExtranonceAllocator;
  bans: BanList;
  /** Counts every judged submit of the V1 ports for bans (one decision per connection). */
  judge: BanJudge<Session>;
  resolver: LoginResolver;
  hashrate: Map<CoinId, HashrateTracker>;
  scrypt: ScryptPool | undefined;
  /** Scrypt shares waiting for a hash, served fairly per address and connection. */
  scryptWork: FairWork<Session> | undefined;
  /** SHA-256d submits waiting for this turn's batch hash. */
  sha256d: Sha256dQueue<SubmitContext>;
  sessions: Set<Session>;
  stats: { accepted: number; rejected: Record<RejectionKind, number> };
  /** Block submissions in flight (awaited on stop). */
  pendingBlocks: Set<Promise<void>>;
}

/** What the sessions of one port share. */
export interface PortRuntime {
  pool: PoolRuntime;
  config: StratumPortConfig;
  coin: CoinId;
  scheme: PayoutScheme;
  algorithm: Algorithm;
  params: CoinParams;
  jobs: JobManager;
  /** Lowest difficulty any session of this port may get. */
  minDifficulty: number;
}
