// What every Stratum dialect shares in one process: the share sink, logins, the ban list, the
// extranonce allocator and each coin's hashrate. stratum/index.ts builds it once and hands it to
// each family's ports (coins/<family>/stratum).
import type { Logger } from 'pino';
import type { CoinId, Config } from '../config/index.js';
import type { Database } from '../db/index.js';
import type { PoolEvents } from '../events.js';
import type { HashrateTracker } from '../shares/hashrate.js';
import type { ShareSink } from '../shares/sink.js';
import type { LoginResolver } from './auth.js';
import type { BanList } from './bans.js';
import type { ExtranonceAllocator } from './extranonce.js';

export interface StratumKit {
  config: Config;
  db: Database;
  logger: Logger;
  events: PoolEvents;
  /** Accepted shares and found blocks: journaled before the miner is told. */
  writer: ShareSink;
  resolver: LoginResolver;
  bans: BanList;
  allocator: ExtranonceAllocator;
  /** One tracker per coin served by this process. */
  hashrate: ReadonlyMap<CoinId, HashrateTracker>;
  /** Each port's share of the open-files limit (Node closes a connection past it as it is accepted). */
  maxConnectionsPerPort: number;
}

/** The tracker of a coin the process serves (the kit holds one for each). */
export function hashrateOf(kit: StratumKit, coin: CoinId): HashrateTracker {
  const tracker = kit.hashrate.get(coin);
  if (!tracker) throw new Error(`no hashrate tracker for ${coin}`);
  return tracker;
}
