// The seam between the shared pool and a coin family. Start-up (main.ts, background.ts,
// stratum/index.ts) sees only these types and the registry's list; each family's folder
// (coins/<family>) implements them. Nothing outside coins/ imports a family folder
// but the registry (see docs/ARCHITECTURE.md, "Adding a coin family").
import type { Health } from '@manjam/contract';
import type { Family } from '@manjam/protocol';
import type { AccountingChain } from '../accounting/chain.js';
import type { CoinId, Config, PayoutScheme } from '../config/index.js';
import type { Logger } from '../logger.js';
import type { StratumKit } from '../stratum/kit.js';

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

/** A Stratum port a process serves, as start-up, the API and the summary see it. */
export interface ServedPort {
  coin: CoinId;
  port: number;
  tls: boolean;
  scheme: PayoutScheme;
  /** The port's dialect (config `stratum.ports[].protocol`). */
  protocol: 'v1' | 'v2';
  /** A port with an authority (Stratum V2): its public key in base58check, the form miners configure. */
  authorityKey?: string;
  /** Connections seated on the port now (stratum/listener.ts listenerFigures). */
  connections?: number;
  /** Accepted shares per second on the port over the last minute, where its listener runs. */
  sharesPerSecond?: number;
  /** The port's hashrate (H/s) over the last 10 minutes (or the time its shares have come), where its listener runs. */
  hashrate?: number;
}

/**
 * One sample of a figure a family reports of its own ports (what its dialect or its hashing holds
 * that other families do not): the /metrics line it is shown on, its labels and its value now.
 */
export interface FamilyFigure {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The sum of the samples named `name` (0 when no family reports it). */
export function figureTotal(figures: readonly FamilyFigure[], name: string): number {
  return figures.reduce((sum, figure) => (figure.name === name ? sum + figure.value : sum), 0);
}

/** A family's open Stratum ports (its dialect on the shared kit). */
export interface FamilyPorts {
  ports(): ServedPort[];
  /** Counters of these ports (the ban list is the kit's and counted there). */
  stats(): {
    connections: number;
    accepted: number;
    rejected: Record<string, number>;
  };
  /** The family's own figures of these ports now (families with none give none). */
  figures?(): FamilyFigure[];
  /** Called once every family's ports listen: jobs start flowing. */
  start(): void;
  /** Reconnects miners and closes the ports; found blocks in flight are settled. */
  close(): Promise<void>;
  /** After accepted shares are flushed: releases hashing threads. */
  release(): Promise<void>;
}

/** A family's running chain side in this process. */
export interface FamilyChain {
  readonly family: Family;
  /** The coins this process serves work for. */
  readonly coins: readonly CoinId[];
  /** One entry per coin with a node in this process (none in `core-jobs` mode). */
  health(): Promise<ChainHealth[]>;
  /** Whether each coin with a node has work now. */
  up(): { coin: CoinId; up: boolean }[];
  accounting(logger: Logger): FamilyAccounting;
  /** Work only the accounting leader does for the family (e.g. publishing jobs to regions). */
  leaderWork?(config: Config, logger: Logger): Promise<{ stop(): Promise<void> } | undefined>;
  /** Opens the family's Stratum ports of `config.stratum.ports`. */
  openPorts(kit: StratumKit): Promise<FamilyPorts>;
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
