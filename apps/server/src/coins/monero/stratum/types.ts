// The XMR port's vocabulary: its miner and share types (XMR is not a Bitcoin-family CoinId), what
// it needs from the pool (share sink, logins, hashrate, events) and its options. Its rejections are
// the kit's one vocabulary (../../../stratum/rejections.ts), its counters the kit's ShareStats.
import type { MoneroNetwork } from '@manjam/protocol/monero';
import type { RandomXPool } from '@manjam/randomx';
import type { Logger } from 'pino';
import type { CoinId, Config, PayoutScheme } from '../../../config/index.js';
import type { PoolEvents } from '../../../events.js';
import type { HashrateTracker } from '../../../shares/hashrate.js';
import type { DialectShareSink } from '../../../shares/sink.js';
import type { AcceptedShare, FoundBlockRecord, MinerRef } from '../../../shares/types.js';
import type { LoginOutcome } from '../../../stratum/auth.js';
import type { JsonPortOptions, JsonStratumSettings } from '../../../stratum/json-server.js';
import type { ShareStats } from '../../../stratum/share-book.js';
import type { WorkerOwners } from '../../../stratum/strangers.js';
import type { VardiffSettings } from '../../../stratum/vardiff.js';
import type { MoneroTemplate, MoneroWorkSource } from './template-source.js';

export const XMR = 'XMR' satisfies CoinId;
export type MoneroMinerRef = MinerRef<typeof XMR>;
export type MoneroAcceptedShare = Omit<AcceptedShare, 'miner'> & { miner: MoneroMinerRef };
export type MoneroFoundBlock = Omit<FoundBlockRecord, 'miner'> & { miner: MoneroMinerRef };

/** The ShareSink's methods this server uses (the OK reply waits for addAccepted's durability). */
export type MoneroShareSink = DialectShareSink<typeof XMR>;

export type MoneroStratumSettings = JsonStratumSettings & Pick<Config['stratum'], 'powQueue'>;

/** The kit's port options (port, host, TLS, shared ban list and extranonce space) and the dialect's. */
export interface MoneroStratumOptions extends JsonPortOptions<MoneroTemplate> {
  network: MoneroNetwork;
  scheme: PayoutScheme;
  vardiff: VardiffSettings;
  stratum: MoneroStratumSettings;
  source: MoneroWorkSource;
  /** Share checks; held while a miner is logged in, which is when its seeds are built (randomx-seeds.ts). */
  randomx: RandomXPool;
  sink: MoneroShareSink;
  logger: Logger;
  /** The pool around the port (absent in the standalone dialect tests). */
  pool?: MoneroPoolHooks;
}

/** What the pool lends the XMR port: account logins, live hashrate, events. */
export interface MoneroPoolHooks {
  /** A login that is not a Monero address: `<Manjam username>[.worker]` (the LoginResolver). */
  resolveAccount(login: string): Promise<LoginOutcome>;
  /** Which logins speak for their workers (stratum/strangers.ts): each login is bound to its address. */
  owners?: WorkerOwners;
  hashrate: HashrateTracker;
  events: PoolEvents;
}

/** The port's counters (added to /metrics). */
export type MoneroStats = ShareStats;
