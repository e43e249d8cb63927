// The XMR port's vocabulary: its miner and share types (XMR is not a Bitcoin-family CoinId), what
// it needs from the pool (share sink, logins, hashrate, events), its options and its rejections.
import type { MoneroNetwork } from '@manjam/protocol/monero';
import type { RandomXPool } from '@manjam/randomx';
import type { Logger } from 'pino';
import type { CoinId, Config, PayoutScheme, StratumPortConfig } from '../../../config/index.js';
import type { PoolEvents } from '../../../events.js';
import type { HashrateTracker } from '../../../shares/hashrate.js';
import type { DialectShareSink } from '../../../shares/sink.js';
import type { AcceptedShare, FoundBlockRecord, MinerRef } from '../../../shares/types.js';
import type { LoginOutcome } from '../../../stratum/auth.js';
import type { BanList } from '../../../stratum/bans.js';
import type { ExtranonceAllocator } from '../../../stratum/extranonce.js';
import type { VardiffSettings } from '../../../stratum/vardiff.js';
import type { MoneroTemplateSource } from './template-source.js';

export const XMR = 'XMR' satisfies CoinId;
export type MoneroMinerRef = MinerRef<typeof XMR>;
export type MoneroAcceptedShare = Omit<AcceptedShare, 'miner'> & { miner: MoneroMinerRef };
export type MoneroFoundBlock = Omit<FoundBlockRecord, 'miner'> & { miner: MoneroMinerRef };

/** The ShareSink's methods this server uses (the OK reply waits for addAccepted's durability). */
export type MoneroShareSink = DialectShareSink<typeof XMR>;

export type MoneroStratumSettings = Pick<
  Config['stratum'],
  | 'maxLineBytes'
  | 'maxConnectionsPerIp'
  | 'idleTimeoutSeconds'
  | 'authorizeTimeoutSeconds'
  | 'ban'
  | 'powQueue'
  | 'instanceId'
>;

export interface MoneroStratumOptions {
  /** 0 = any free port. */
  port: number;
  host: string;
  /** Certificate and key files: the port speaks TLS (as a V1 port with the same config). */
  tls?: StratumPortConfig['tls'];
  network: MoneroNetwork;
  scheme: PayoutScheme;
  vardiff: VardiffSettings;
  stratum: MoneroStratumSettings;
  source: MoneroTemplateSource;
  /** Share checks; held while a miner is logged in, which is when its seeds are built (randomx-seeds.ts). */
  randomx: RandomXPool;
  sink: MoneroShareSink;
  logger: Logger;
  /** The pool around the port (absent in the standalone dialect tests). */
  pool?: MoneroPoolHooks;
  /** The process's ban list and extranonce space, shared with the V1 ports (default: the port's own). */
  bans?: BanList;
  allocator?: ExtranonceAllocator;
}

/** What the pool lends the XMR port: account logins, live hashrate, events. */
export interface MoneroPoolHooks {
  /** A login that is not a Monero address: `<Manjam username>[.worker]` (the LoginResolver). */
  resolveAccount(login: string): Promise<LoginOutcome>;
  hashrate: HashrateTracker;
  events: PoolEvents;
}

export const MONERO_REJECTIONS = [
  'stale',
  'duplicate',
  'low_difficulty',
  'invalid',
  'unauthorized',
  'busy',
] as const;
export type MoneroRejection = (typeof MONERO_REJECTIONS)[number];

/** The port's counters (added to /metrics). */
export interface MoneroStats {
  accepted: number;
  blocks: number;
  rejected: Record<MoneroRejection, number>;
}
