// What the connections of one Stratum V2 port share: the V1 port's runtime (pool, job manager,
// vardiff settings; context.ts), the authority, and the port's own counters.
import type { PortRuntime } from '../stratum/context.js';
import type { Sv2Authority } from './authority.js';
import type { Sv2Connection, Sv2Fault } from './connection.js';

export interface Sv2Counters {
  /** Connections closed for what they sent, by kind. */
  faults: Record<Sv2Fault, number>;
  /** Bytes on the wire, handshakes included (the drill's bytes per share and per job). */
  wire: { bytesIn: number; bytesOut: number };
}

export interface Sv2PortRuntime extends PortRuntime, Sv2Counters {
  authority: Sv2Authority;
  connections: Set<Sv2Connection>;
}

export function sv2Counters(): Sv2Counters {
  return {
    faults: { handshake: 0, 'bad-frame': 0, 'bad-message': 0, protocol: 0, timeout: 0 },
    wire: { bytesIn: 0, bytesOut: 0 },
  };
}
