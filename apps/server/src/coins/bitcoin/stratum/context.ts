// The types the V1 Stratum modules share: the pool's and a port's runtime, the
// session as the handlers see it, the queued SHA-256d share and the handler signature. This module
// imports only leaf modules, never session.ts, submit.ts, handlers.ts, found-block.ts or
// sha256d-queue.ts, so those no longer form an import circle through it: they all import it.
import type { RequestId } from '../../../stratum/framing.js';
import type { Algorithm, CoinParams, ShareInput, StratumError } from '@manjam/protocol';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { CoinId, Config, PayoutScheme, StratumPortConfig } from '../../../config/index.js';
import type { PoolEvents } from '../../../events.js';
import type { HashrateTracker } from '../../../shares/hashrate.js';
import type { ShareSink } from '../../../shares/sink.js';
import type { LoginResolver } from '../../../stratum/auth.js';
import type { AddressRecord, BanList, ShareWindow } from '../../../stratum/bans.js';
import type { ExtranonceAllocator } from '../../../stratum/extranonce.js';
import type { FairWork } from '../../../stratum/fair-work.js';
import type { Job, JobManager } from './jobs.js';
import type { ScryptPool } from './pow-pool.js';
import type { RejectionKind } from '../../../stratum/rejections.js';
import type { ReplyOrder } from '../../../stratum/reply-order.js';
import type { ShareBook } from '../../../stratum/share-book.js';
import type { Vardiff } from '../../../stratum/vardiff.js';
import type { MinerRef } from '../../../shares/types.js';

/** What every session of the process shares. */
export interface PoolRuntime {
  config: Config;
  logger: Logger;
  events: PoolEvents;
  /** The local journal writer, or the JetStream share log on a regional node. */
  writer: ShareSink;
  allocator: ExtranonceAllocator;
  bans: BanList;
  resolver: LoginResolver;
  hashrate: ReadonlyMap<CoinId, HashrateTracker>;
  scrypt: ScryptPool | undefined;
  /** Scrypt shares waiting for a hash, served fairly per address and connection. */
  scryptWork: FairWork<StratumSession> | undefined;
  /** SHA-256d submits waiting for this turn's batch hash. */
  sha256d: ShareQueue<SubmitContext>;
  sessions: Set<StratumSession>;
  /** Counts of the V1 ports by the kit's one rejection vocabulary (stratum/rejections.ts). */
  stats: { accepted: number; rejected: Record<RejectionKind, number> };
  /**
   * Books every judged submit of the V1 ports: counters, share log, hashrate, and the ban judge
   * over their sessions (one decision per connection; stratum/share-book.ts).
   */
  book: ShareBook<StratumSession, CoinId>;
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

/** A JSON-RPC id as a miner sent it. */
export type StratumId = RequestId;

/** A request that arrived while an earlier one of its connection was still pending. */
export interface QueuedRequest {
  id: StratumId;
  method: string;
  params: unknown[];
}

/** One miner connection as the handlers see it (implemented by session.ts's Session). */
export interface StratumSession {
  readonly id: number;
  readonly socket: Socket;
  readonly address: AddressRecord;
  readonly port: PortRuntime;
  readonly ip: string;
  extranonce1: Buffer | undefined;
  subscribed: boolean;
  userAgent: string;
  readonly logins: Map<string, MinerRef>;
  versionMask: number;
  readonly vardiff: Vardiff;
  difficulty: number;
  target: bigint;
  olderDifficulty: number;
  olderTarget: bigint;
  diffFromSeq: number;
  pendingDifficulty: number | undefined;
  working: boolean;
  readonly connectedMs: number;
  lastReceivedMs: number;
  readonly window: ShareWindow;
  refusedAuthorizes: number;
  unknownMethods: number;
  busy: boolean;
  readonly waiting: QueuedRequest[];
  resume: () => void;
  readonly order: ReplyOrder;
  closed: boolean;
  mustWait(method: string): boolean;
  send(line: string): void;
  reply(id: StratumId, resultJson: string, ticket?: number): void;
  error(id: StratumId, error: StratumError, ticket?: number): void;
  /** A judged share's answer (submit.ts): V1 replies `true`, a V2 channel SubmitShares.Success. */
  shareAccepted(id: StratumId, ticket?: number): void;
  /** A refused share's answer: V1 replies `error`, a V2 channel maps `kind` to its error code. */
  shareRefused(id: StratumId, kind: RejectionKind, error: StratumError, ticket?: number): void;
  notify(method: string, params: unknown[]): void;
  announceDifficulty(difficulty: number): void;
  sendJob(job: Job): void;
  requirementFor(job: Job): { difficulty: number; target: bigint };
  close(reason: string): void;
}

/** A V1 method handler (handlers.ts's map). */
export type Handler = (session: StratumSession, id: StratumId, params: unknown[]) => void | Promise<void>;

/** What a queued SHA-256d submit carries to its answer. */
export interface SubmitContext {
  id: StratumId;
  miner: MinerRef;
  /** Its place in the session's reply order. */
  ticket: number;
}

/** A SHA-256d submit that passed every check but the hash ones, waiting for its hash. */
export interface QueuedShare<T> {
  session: StratumSession;
  job: Job;
  input: ShareInput;
  /** What the caller needs back with the hash. */
  context: T;
}

/** The turn's SHA-256d batch as a submit sees it (sha256d-queue.ts's Sha256dQueue). */
export interface ShareQueue<T> {
  readonly size: number;
  add(share: QueuedShare<T>): void;
}
