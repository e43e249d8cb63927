// The Stratum side of the seam between the shared pool and a coin family: what a family's chain
// opens on the shared kit (its ports, their counters and figures). Stratum start-up (index.ts)
// sees only these types; each family's stratum/ports.ts implements them, and coins/family.ts's
// FamilyChain is a FamilyPortsOpener.
import type { CoinId, PayoutScheme } from '../config/index.js';
import type { StratumKit } from './kit.js';

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

/** What Stratum start-up needs of a family's chain side: its coins and the opening of its ports. */
export interface FamilyPortsOpener {
  /** The coins this process serves work for. */
  readonly coins: readonly CoinId[];
  /** Opens the family's Stratum ports of `config.stratum.ports`. */
  openPorts(kit: StratumKit): Promise<FamilyPorts>;
}
