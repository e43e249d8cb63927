// One listening Stratum V2 port (`stratum.ports[]` with `protocol: "v2"`), on the kit's listener
// and connection caps (bans, per-address cap, the port's share of open files), serving the same
// job manager, SHA-256d queue, share book and block submitter as the V1 port of its coin.
// Not on by default: an operator adds `{ "port": 34254, "coin": "BTC", "protocol": "v2", ... }`.
import type net from 'node:net';
import { createStratumListener, listenStratum } from '../../../stratum/listener.js';
import { Sv2Connection } from './connection.js';
import { closeChannel } from './handlers.js';
import type { Sv2PortRuntime } from './runtime.js';

/** The port SV2 deployments use (SRI's pool and translator examples, Braiins Pool). */
export const SV2_DEFAULT_PORT = 34254;

/** How often connections without a channel, or silent ones, are looked for. */
const SWEEP_MS = 5_000;

export class Sv2Port {
  readonly server: net.Server;
  /** Noise encrypts a V2 port; it never has a TLS certificate. */
  readonly tls = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(readonly runtime: Sv2PortRuntime) {
    this.server = createStratumListener(undefined, (socket) => this.accept(socket));
    this.server.on('error', (error) =>
      runtime.pool.logger.error({ err: error, port: runtime.config.port }, 'stratum v2 port error'),
    );
    this.sweeper = setInterval(() => this.sweep(Date.now()), SWEEP_MS);
    this.sweeper.unref();
    runtime.handshakes.retain();
  }

  /**
   * A connection's channels are swept with V1's sessions (idle, vardiff; ports.ts). This closes
   * what that sweep never sees: a connection with no channel open for `authorizeTimeoutSeconds`
   * (V1's deadline to authorize), or silent for `idleTimeoutSeconds`.
   */
  sweep(now: number): void {
    const { authorizeTimeoutSeconds, idleTimeoutSeconds } = this.runtime.pool.config.stratum;
    for (const conn of this.runtime.connections) {
      if (now - conn.lastReceivedMs > idleTimeoutSeconds * 1000) conn.close('idle');
      else if (
        conn.channels.size + conn.opening === 0 &&
        now - conn.channelSinceMs > authorizeTimeoutSeconds * 1000
      )
        conn.close('no channel open in time');
    }
  }

  /** Listens once the handshake threads have loaded, so the first miners never wait for them. */
  async listen(host: string): Promise<number> {
    await this.runtime.handshakes.ready();
    return listenStratum(this.server, host, this.runtime.config.port);
  }

  /** Stops listening and hangs up every connection (V2 has no reconnect hint without a host). */
  close(): Promise<void> {
    clearInterval(this.sweeper);
    this.runtime.handshakes.release();
    const closing = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const conn of this.runtime.connections) {
      conn.socket.end();
      conn.close('shutdown');
    }
    return closing;
  }

  private accept(socket: net.Socket): void {
    const runtime = this.runtime;
    const pool = runtime.pool;
    socket.on('error', () => undefined);
    // No work (the coin's nodes are silent): nothing to offer; V2 has no plain-text message for it.
    if (!runtime.jobs.current) {
      socket.destroy();
      return;
    }
    const address = pool.bans.admit(
      socket.remoteAddress ?? 'unknown',
      pool.config.stratum.maxConnectionsPerIp,
    );
    if (!address) {
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    const conn = new Sv2Connection(socket, address, runtime);
    runtime.connections.add(conn);
    socket.on('close', () => {
      conn.close('closed');
      runtime.connections.delete(conn);
      for (const channelId of [...conn.channels.keys()]) closeChannel(conn, channelId);
      pool.bans.release(address);
    });
  }
}
