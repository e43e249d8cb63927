// What the connections of one Stratum V2 port share: the V1 port's runtime (pool, job manager,
// vardiff settings; context.ts), the authority, and the port's own counters; and what the
// message handlers and the port's sweep see of a connection (Sv2Link: connection.ts implements
// it), so neither imports the connection class.
import type { Socket } from 'node:net';
import type { Frame, Sv2Message } from '@manjam/protocol/sv2';
import type { AddressRecord } from '../../../stratum/bans.js';
import type { PortRuntime } from '../stratum/context.js';
import type { Sv2Authority } from './authority.js';
import type { Sv2Channel } from './channel.js';
import type { Sv2HandshakePool } from './handshake-pool.js';

/** Why a connection was closed for what it sent (counted per port, on /metrics). */
/** ('handshake-shed': closed before its handshake was computed, over a handshake rate or budget.) */
export type Sv2Fault = 'handshake' | 'handshake-shed' | 'bad-frame' | 'bad-message' | 'protocol' | 'timeout';

/** One V2 connection as the handlers and the sweep use it. */
export interface Sv2Link {
  readonly id: number;
  readonly ip: string;
  readonly socket: Socket;
  readonly address: AddressRecord;
  readonly runtime: Sv2PortRuntime;
  readonly channels: Map<number, Sv2Channel>;
  closed: boolean;
  /** SetupConnection's vendor/firmware, copied to each channel. */
  userAgent: string;
  /** SetupConnection accepted: channel messages may follow. */
  setUp: boolean;
  /** Channel opens waiting for their login lookup (they count toward the channel cap). */
  opening: number;
  nextChannelId: number;
  lastReceivedMs: number;
  /** Since when the connection has had no channel (its start, or its last channel's close). */
  channelSinceMs: number;
  send(message: Sv2Message): void;
  /** Encoded messages, written together. */
  sendFrames(frames: readonly Frame[]): void;
  close(reason: string): void;
  /** Closes for something the peer sent: counted by kind. */
  fault(kind: Sv2Fault, reason: string): void;
}

export interface Sv2Counters {
  /** Connections closed for what they sent, by kind. */
  faults: Record<Sv2Fault, number>;
  /** Bytes on the wire, handshakes included (the drill's bytes per share and per job). */
  wire: { bytesIn: number; bytesOut: number };
}

export interface Sv2PortRuntime extends PortRuntime, Sv2Counters {
  authority: Sv2Authority;
  /** The handshake threads and their rates, shared by every V2 port. */
  handshakes: Sv2HandshakePool;
  /** Channels open or opening per address, on every V2 port together. */
  channelsByAddress: Map<string, number>;
  connections: Set<Sv2Link>;
}

export function sv2Counters(): Sv2Counters {
  return {
    faults: { handshake: 0, 'handshake-shed': 0, 'bad-frame': 0, 'bad-message': 0, protocol: 0, timeout: 0 },
    wire: { bytesIn: 0, bytesOut: 0 },
  };
}
