import type { Health, PoolCoin } from '@manjam/contract';
import type { FastifyInstance } from 'fastify';
import type { FamilyFigure } from '../coins/family.js';
import type { Config } from '../config/index.js';
import type { Database } from '../db/index.js';
import type { PoolEvents } from '../events.js';
import type { Logger } from '../logger.js';
import type { BanControl } from '../services/operator/operator-service.js';
import type { AnyRoute } from './route.js';
import type { Resolve } from '../services/outbound/policy.js';

export interface HealthReport {
  ok: boolean;
  database: Health['database'];
  chains: Health['chains'];
  /** Open operator alerts (stuck payout, empty wallet...): the pool serves, but money needs the operator. */
  alerts: { kind: string; coin: string | null; message: string; since: string }[];
  stratum?: Health['stratum'];
}

export interface PoolInfo {
  host: string;
  /** `protocol` absent means V1; a V2 port carries the authority key once it is known. */
  ports(): {
    coin: PoolCoin;
    port: number;
    tls: boolean;
    scheme: string;
    protocol?: 'v1' | 'v2';
    authorityKey?: string;
    /** Connections open on the port now, where this process runs its listener. */
    connections?: number;
    /** Accepted shares per second over the last minute, and hashrate (H/s) over 10 minutes, where this process runs its listener. */
    sharesPerSecond?: number;
    hashrate?: number;
  }[];
  /** Live from Stratum when it runs in this process, else null (computed from share_stats). */
  hashrate(coin: PoolCoin): number | null;
}

/** Optional counters from the Stratum side for /metrics. */
export interface StratumMetrics {
  connections(): number;
  /** Shares seen since start, by result ('accepted', 'stale', 'duplicate', 'low-difficulty', ...). */
  sharesByResult(): Record<string, number>;
  /** Ban decisions since start, by scope ('connection', 'ip'). */
  bans?: () => Record<string, number>;
  /** The families' own figures of their ports (V2 connections, RandomX pools, ...), by /metrics name. */
  figures?: () => FamilyFigure[];
  /** Accepted shares not yet in the database or the core's share stream. */
  sharesUnstored?: () => number;
}

/** Per coin: 1 while a node backs its work, 0 while work is stopped (manjam_chain_up). */
export type ChainUpGauge = () => { coin: string; up: boolean }[];

export interface HttpDeps {
  config: Config;
  db: Database;
  logger: Logger;
  events: PoolEvents;
  health: () => Promise<HealthReport>;
  pool: PoolInfo;
  metrics?: StratumMetrics;
  /** The chains of this process, when it runs any. */
  chainUp?: ChainUpGauge;
  /** Accounting's counters (payout runs, insufficient funds, orphans...) when it runs in this process. */
  accountingCounters?: () => Record<string, number>;
  /** The Stratum ban list when Stratum runs in this process (the operator console lists and lifts bans). */
  bans?: BanControl;
  /** Test seam: the clock (defaults to Date.now). */
  now?: () => number;
  /**
   * How host names a user aims the server at (push endpoints) are resolved for the outbound
   * policy when saved; defaults to the system's DNS (services/outbound/policy.ts).
   */
  resolve?: Resolve;
}

export interface HttpService {
  url: string;
  app: FastifyInstance;
  /** The declared routes (method, url, contract schemas) the app serves. */
  routes: readonly AnyRoute[];
  stop(): Promise<void>;
}
