// The Bitcoin family's Stratum V2 ports, opened by coins/bitcoin/stratum/ports.ts beside the V1
// ports on the same pool runtime. The authority is loaded (or generated) once, when the first V2
// port opens, and its public key is logged in the base58check form miners configure. The V2 code
// (Noise handshakes, secp256k1, the connection and channel handlers) is loaded with the first V2
// port: a process serving V1 ports only does not hold it.
import { algorithmOf } from '@manjam/protocol';
import type { Logger } from 'pino';
import type { Config } from '../../../config/index.js';
import type { PortRuntime } from '../stratum/context.js';
import type { Sv2Authority } from './authority.js';
import type { Sv2HandshakePool } from './handshake-pool.js';
import type { Sv2Port } from './port.js';
import { sv2Counters, type Sv2PortRuntime } from './runtime.js';
import type { Sv2Fault } from './runtime.js';

/** What health and /metrics show of a family's V2 ports. */
export interface Sv2Stats {
  connections: number;
  channels: number;
  faults: Record<Sv2Fault, number>;
  bytesIn: number;
  bytesOut: number;
}

export class Sv2Ports {
  private authority: Sv2Authority | undefined;
  /** One set of handshake threads and rates for every V2 port of the process (made with the first). */
  private handshakes: Sv2HandshakePool | undefined;
  /** Channels per address on every V2 port together (their cap: handlers.ts channelsPerAddress). */
  private readonly channelsByAddress = new Map<string, number>();
  readonly runtimes: Sv2PortRuntime[] = [];

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
  ) {}

  async open(port: PortRuntime): Promise<Sv2Port> {
    if (algorithmOf(port.coin) !== 'sha256d')
      throw new Error(
        `stratum port ${port.config.port}: Stratum V2 serves SHA-256d coins only, not ${port.coin}`,
      );
    const [{ loadAuthority }, { Sv2HandshakePool }, { Sv2Port }] = await Promise.all([
      import('./authority.js'),
      import('./handshake-pool.js'),
      import('./port.js'),
    ]);
    this.handshakes ??= new Sv2HandshakePool();
    if (!this.authority) {
      this.authority = await loadAuthority(this.config);
      this.logger.info(
        { authorityPublicKey: this.authority.publicKeyText },
        'stratum v2 authority public key (give it to miners and translators)',
      );
    }
    const runtime: Sv2PortRuntime = {
      ...port,
      ...sv2Counters(),
      authority: this.authority,
      handshakes: this.handshakes,
      channelsByAddress: this.channelsByAddress,
      connections: new Set(),
    };
    this.runtimes.push(runtime);
    return new Sv2Port(runtime);
  }

  /** The authority's public key text, once a V2 port is open. */
  get authorityPublicKey(): string | undefined {
    return this.authority?.publicKeyText;
  }

  connections(): number {
    return this.runtimes.reduce((n, r) => n + r.connections.size, 0);
  }

  channels(): number {
    let n = 0;
    for (const r of this.runtimes) for (const c of r.connections) n += c.channels.size;
    return n;
  }

  stats(): Sv2Stats {
    const faults = sv2Counters().faults;
    let bytesIn = 0;
    let bytesOut = 0;
    for (const r of this.runtimes) {
      for (const [kind, count] of Object.entries(r.faults)) faults[kind as Sv2Fault] += count;
      bytesIn += r.wire.bytesIn;
      bytesOut += r.wire.bytesOut;
    }
    return { connections: this.connections(), channels: this.channels(), faults, bytesIn, bytesOut };
  }
}
