// The seam between the shared pool and a coin family. Start-up (main.ts, background.ts) sees
// only these types and the registry's list, Stratum start-up only their port side
// (stratum/family-ports.ts, re-exported here); each family's folder
// (coins/<family>) implements them. Nothing outside coins/ imports a family folder
// but the registry (see docs/ARCHITECTURE.md, "Adding a coin family").
import type { Health } from '@manjam/contract';
import type { Family } from '@manjam/protocol';
import type { AccountingChain } from '../accounting/chain.js';
import type { CoinId, Config } from '../config/index.js';
import type { Logger } from '../logger.js';
import type { FamilyPortsOpener } from '../stratum/family-ports.js';

// A family's ports are the Stratum side of the seam (stratum/family-ports.ts); named here too for start-up.
export {
  figureTotal,
  type FamilyFigure,
  type FamilyPorts,
  type FamilyPortsOpener,
  type ServedPort,
} from '../stratum/family-ports.js';

/** /api/health's entry for one coin (its shape is the contract's). */
export type ChainHealth = Health['chains'][number];

/** Where a process takes its work from (main.ts decides from the role). */
export type ChainMode =
  /** Nodes of its own (configured, or regtest dev chains started with the pool). */
  | 'nodes'
  /** A regional Stratum node: jobs from the core's job feed, no node of its own. */
  | 'core-jobs';

/** What accounting gets from a family: a chain per coin it can pay, and coins credited only. */
export interface FamilyAccounting {
  chains: [CoinId, AccountingChain][];
  /** Coins whose shares are credited while blocks and payouts wait (no wallet configured). */
  creditOnly: CoinId[];
}

/** A family's running chain side in this process. */
export interface FamilyChain extends FamilyPortsOpener {
  readonly family: Family;
  /** One entry per coin with a node in this process (none in `core-jobs` mode). */
  health(): Promise<ChainHealth[]>;
  /** Whether each coin with a node has work now. */
  up(): { coin: CoinId; up: boolean }[];
  accounting(logger: Logger): FamilyAccounting;
  /** Work only the accounting leader does for the family (e.g. publishing jobs to regions). */
  leaderWork?(config: Config, logger: Logger): Promise<{ stop(): Promise<void> } | undefined>;
  stop(): Promise<void>;
}

export interface CoinFamily {
  readonly id: Family;
  /** Starts the chain side of its enabled coins; undefined when none is enabled in this mode. */
  startChain(config: Config, logger: Logger, mode: ChainMode): Promise<FamilyChain | undefined>;
  /**
   * For an API process that runs without Stratum: the authority public key its configured ports
   * would show (ServedPort.authorityKey), read (never generated) from the same config or dataDir
   * key file the Stratum process uses; undefined when none of its ports has one or the key is not
   * there yet.
   */
  authorityKey?(config: Config): Promise<string | undefined>;
}
