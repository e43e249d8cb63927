// The KAS port's vocabulary: its miner and share types, what it needs from the pool (logins,
// hashrate, events), its options and counters. Its rejections are the kit's one vocabulary
// (../../../stratum/rejections.ts).
import type { CoinOf } from '@manjam/protocol';
import type { KaspaNetwork } from '@manjam/protocol/kaspa';
import type { Logger } from 'pino';
import type { PayoutScheme } from '../../../config/index.js';
import type { HashrateTracker } from '../../../shares/hashrate.js';
import type { DialectShareSink } from '../../../shares/sink.js';
import type { AcceptedShare, FoundBlockRecord, MinerRef } from '../../../shares/types.js';
import type { LoginOutcome } from '../../../stratum/auth.js';
import type { ExtranonceAllocator } from '../../../stratum/extranonce.js';
import type { JsonPortOptions, JsonStratumSettings } from '../../../stratum/json-server.js';
import type { ShareStats } from '../../../stratum/share-book.js';
import type { WorkerOwners } from '../../../stratum/strangers.js';
import type { VardiffSettings } from '../../../stratum/vardiff.js';
import type { KaspaTemplate, KaspaWorkSource } from '../template-source.js';

/** The Kaspa family's coin (the coin table's row). */
export const KAS = 'KAS' satisfies CoinOf<'kaspa'>;
export type KaspaMinerRef = MinerRef<typeof KAS>;
export type KaspaAcceptedShare = Omit<AcceptedShare, 'miner'> & { miner: KaspaMinerRef };
export type KaspaFoundBlock = Omit<FoundBlockRecord, 'miner'> & { miner: KaspaMinerRef };

/** The ShareSink's methods the KAS port uses (ports.ts hands it the kit's writer). */
export type KaspaShareSink = DialectShareSink<typeof KAS>;

export type KaspaStratumSettings = JsonStratumSettings;

/** What the pool lends the KAS port: account logins, live hashrate, worker events. */
export interface KaspaPoolHooks {
  /** A login that is not a Kaspa address: `<Manjam username>[.worker]` (the kit's LoginResolver). */
  resolveAccount(login: string): Promise<LoginOutcome>;
  /** Which logins speak for their workers (stratum/strangers.ts): each login is bound to its address. */
  owners?: WorkerOwners;
  hashrate: HashrateTracker;
  /** worker.connected / worker.disconnected on the pool's events (ports.ts). */
  /** `agent`: the session's mining.subscribe agent ('' when none). */
  workerChanged(
    state: 'connected' | 'disconnected',
    miner: KaspaMinerRef,
    login: string,
    agent: string,
  ): void;
}

/** The kit's port options (port, host, TLS, shared ban list and extranonce space) and the dialect's. */
export interface KaspaStratumOptions extends JsonPortOptions<KaspaTemplate> {
  network: KaspaNetwork;
  scheme: PayoutScheme;
  vardiff: VardiffSettings;
  stratum: KaspaStratumSettings;
  source: KaspaWorkSource;
  sink: KaspaShareSink;
  logger: Logger;
  pool?: KaspaPoolHooks;
  /** The process's KAS extranonces (KASPA_EXTRANONCE_BYTES each, shared by its KAS ports); default: the port's own. */
  extranonces?: ExtranonceAllocator;
}

/** The port's counters (added to /metrics). */
export interface KaspaStats extends ShareStats {
  /** Jobs sent to miners (all sessions), for jobs per second per miner. */
  jobsSent: number;
}
