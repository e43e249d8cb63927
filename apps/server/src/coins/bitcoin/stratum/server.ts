import type net from 'node:net';
import { stratumError, STRATUM_ERROR } from '@manjam/protocol';
import { refuseWithoutWork } from './coin-availability.js';
import type { PortRuntime, StratumId } from './context.js';
import { LineFramer, MAX_UNKNOWN_METHODS, readRequest } from '../../../stratum/framing.js';
import { createStratumListener, listenStratum } from '../../../stratum/listener.js';
import { HANDLERS } from './handlers.js';
import { Session } from './session.js';

/**
 * One listening Stratum port (plain TCP, or TLS when the port has a cert and key). Refuses
 * banned addresses and addresses over the per-IP connection cap; frames lines with a cap; drops
 * junk; dispatches each request through the handler map, in arrival order per connection: while
 * a handler of a connection is pending (authorize), or a non-submit would overtake an unanswered
 * share, later requests wait in the session's bounded queue. One bad connection never affects
 * others: every handler error is caught and answered, and socket errors only close that socket.
 *
 * Not the kit's JSON-line server (stratum/json-server.ts, the Monero and Kaspa ports): a V1
 * connection holds several logins, gets its extranonce at subscribe (a resumed one, when free),
 * makes later requests wait behind an async authorize and non-submits wait behind owed shares,
 * shares one session set and sweep across the family's ports, and turns miners away while its
 * coin's work is paused. Bending that skeleton around those would cost it its simplicity; the
 * pieces below a connection (listener, framing, reply order, writes, vardiff, extranonces, bans,
 * the share book and the rejection vocabulary) are the kit's.
 */
export class StratumPort {
  readonly server: net.Server;
  readonly tls: boolean;

  constructor(readonly runtime: PortRuntime) {
    const { tls: tlsConfig } = runtime.config;
    this.tls = tlsConfig !== undefined;
    this.server = createStratumListener(tlsConfig, (socket) => this.accept(socket));
    this.server.on('error', (error) =>
      runtime.pool.logger.error({ err: error, port: runtime.config.port }, 'stratum port error'),
    );
  }

  listen(host: string): Promise<number> {
    return listenStratum(this.server, host, this.runtime.config.port);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    const pool = this.runtime.pool;
    const ip = socket.remoteAddress ?? 'unknown';
    socket.on('error', () => undefined);
    if (refuseWithoutWork(socket, this.runtime)) return;
    const address = pool.bans.admit(ip, pool.config.stratum.maxConnectionsPerIp);
    if (!address) {
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    const session = new Session(socket, address, this.runtime);
    session.resume = () => this.drain(session);
    pool.sessions.add(session);
    const framer = new LineFramer(pool.config.stratum.maxLineBytes, (line) => this.onLine(session, line));
    socket.on('data', (text: string) => {
      session.lastReceivedMs = Date.now();
      // Replies to every request in this chunk leave in one write (one syscall, not one per share).
      socket.cork();
      const result = framer.push(text);
      socket.uncork();
      if (result === 'overflow') session.close('line over the cap');
    });
    socket.on('close', () => this.cleanup(session));
  }

  private cleanup(session: Session): void {
    const pool = this.runtime.pool;
    session.closed = true;
    pool.sessions.delete(session);
    if (session.extranonce1) pool.allocator.release(session.extranonce1);
    pool.bans.release(session.address);
    session.waiting.length = 0;
    for (const [login, miner] of session.logins) {
      if (!pool.resolver.owners.showDisconnected(miner)) continue;
      const userId = miner.identity.kind === 'user' ? miner.identity.userId : null;
      pool.events.emit('worker.disconnected', { coin: this.runtime.coin, workerId: null, userId, login });
    }
  }

  /** Handles one line; false when the connection was closed (stop reading). */
  private onLine(session: Session, line: string): boolean {
    if (session.closed) return false;
    // No method: a reply to one of our requests (client.get_version...), or junk.
    const request = readRequest(line);
    if (typeof request === 'string') {
      session.close(request);
      return false;
    }
    if (!request) return true;
    const { id: rpcId, method } = request;
    const params = request.message.params;
    const args = Array.isArray(params) ? (params as unknown[]) : [];
    if (session.waiting.length > 0 || session.mustWait(method)) {
      if (session.waiting.length >= this.runtime.pool.config.stratum.maxQueuedLines)
        session.close('too many lines waiting');
      else session.waiting.push({ id: rpcId, method, params: args });
    } else {
      this.dispatch(session, rpcId, method, args);
    }
    return !session.closed;
  }

  /** Runs one request; an async handler holds the connection's later requests until it settles. */
  private dispatch(session: Session, rpcId: StratumId, method: string, args: unknown[]): void {
    const handler = HANDLERS.get(method);
    if (!handler) {
      session.error(rpcId, stratumError(STRATUM_ERROR.OTHER, `Unknown method ${method.slice(0, 64)}`));
      if (++session.unknownMethods > MAX_UNKNOWN_METHODS) session.close('too many unknown methods');
      return;
    }
    try {
      const pending = handler(session, rpcId, args);
      if (!pending) return;
      session.busy = true;
      void pending.then(
        () => this.settled(session),
        (error: unknown) => {
          this.failed(session, rpcId, method, error);
          this.settled(session);
        },
      );
    } catch (error) {
      this.failed(session, rpcId, method, error);
    }
  }

  private settled(session: Session): void {
    session.busy = false;
    this.drain(session);
  }

  /** Runs the waiting requests of a connection in order until one has to wait again. */
  private drain(session: Session): void {
    if (session.closed || session.waiting.length === 0) return;
    const socket = session.socket;
    socket.cork();
    try {
      while (!session.closed) {
        const next = session.waiting[0];
        if (!next || session.mustWait(next.method)) break;
        session.waiting.shift();
        this.dispatch(session, next.id, next.method, next.params);
      }
    } finally {
      socket.uncork();
    }
  }

  private failed(session: Session, id: StratumId, method: string, error: unknown): void {
    this.runtime.pool.logger.error({ err: error, method, session: session.id }, 'stratum handler failed');
    session.error(id, stratumError(STRATUM_ERROR.OTHER, 'Internal error'));
  }
}
