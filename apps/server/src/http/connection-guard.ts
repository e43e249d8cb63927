// Caps on an HTTP listener's connections, applied as each is accepted, before any byte is read:
// the first 'connection' listener, ahead of the HTTP parser, destroys a connection past its
// address's cap (`http.maxConnectionsPerAddress`), and at the listener's cap
// (`http.maxConnections`) either makes room by closing the oldest connection that never began a
// request, or refuses the new one. The address is the socket's own:
// X-Forwarded-For is a header, unread at this point and set by anyone (behind a reverse proxy,
// the proxy limits per client; docs/OPERATIONS.md). Refusals are counted for /metrics and logged
// as one summary line a minute at most, never one line per connection.
import type { Server as HttpServer, ServerOptions } from 'node:http';
import type { Server, Socket } from 'node:net';
import type { Config } from '../config/index.js';
import type { Logger } from '../logger.js';
import type { MetricsRegistry } from './metrics.js';

export interface ConnectionLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
}

export interface ConnectionFigures {
  /** Connections open now (admitted ones). */
  open: number;
  /** Of those, connections that have not begun a request. */
  waiting: number;
  /**
   * Connections closed as they were accepted, by the cap that refused them; and connections
   * closed before they began a request, to make room for a new one at the listener's cap.
   */
  refused: { cap: number; address: number; evicted: number };
}

export interface ConnectionGuard {
  /** A request began on `socket` (it is no longer a candidate for eviction). */
  started(socket: Socket): void;
  figures(): ConnectionFigures;
}

/** How often Node looks for requests past their header or request deadline. */
export const TIMEOUT_CHECK_MS = 500;
const REFUSAL_LOG_MS = 60_000;

/**
 * Node's http.createServer options for the configured deadlines (headers, whole request), and
 * the idle deadline of a kept-alive connection (a server property, set after creation).
 */
export function httpServerTimeouts(http: Config['http']): {
  options: ServerOptions & { headersTimeout: number; requestTimeout: number };
  keepAliveTimeout: number;
} {
  return {
    options: {
      headersTimeout: http.headersTimeoutSeconds * 1000,
      requestTimeout: http.requestTimeoutSeconds * 1000,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, http.headersTimeoutSeconds * 500),
    },
    keepAliveTimeout: http.keepAliveTimeoutSeconds * 1000,
  };
}

/**
 * Puts the caps on `server` (call before it listens). At the listener's cap, a new connection
 * takes the place of the oldest one that has not begun a request yet (held open with headers
 * that never end, or never a byte): strangers holding connections then only push out each
 * other, while a client that sends its request at once gets in. With none such, the new
 * connection is refused. Call `started` for a request the server's 'request' event does not
 * see (a WebSocket upgrade).
 */
export function guardConnections(
  server: Server | HttpServer,
  limits: ConnectionLimits,
  logger: Logger,
): ConnectionGuard {
  const perAddress = new Map<string, number>();
  /** Admitted sockets and their address. */
  const admitted = new Map<Socket, string>();
  /** Admitted sockets with no request begun, oldest first (a Set keeps insertion order). */
  const waiting = new Set<Socket>();
  const counts = { cap: 0, address: 0, evicted: 0 };
  const logged = { cap: 0, address: 0, evicted: 0, atMs: 0 };
  const noteRefusal = () => {
    const now = Date.now();
    if (now - logged.atMs < REFUSAL_LOG_MS) return;
    logger.warn(
      {
        overCap: counts.cap - logged.cap,
        overAddressCap: counts.address - logged.address,
        evictedWithoutRequest: counts.evicted - logged.evicted,
        limits,
      },
      'http connections refused at accept (over the connection caps) since the last such line',
    );
    Object.assign(logged, counts, { atMs: now });
  };
  const release = (socket: Socket) => {
    const address = admitted.get(socket);
    if (address === undefined) return;
    admitted.delete(socket);
    waiting.delete(socket);
    const left = (perAddress.get(address) ?? 1) - 1;
    if (left > 0) perAddress.set(address, left);
    else perAddress.delete(address);
  };
  const refuse = (socket: Socket, why: 'cap' | 'address') => {
    counts[why] += 1;
    socket.destroy();
    noteRefusal();
  };

  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const open = perAddress.get(address) ?? 0;
    if (open >= limits.maxConnectionsPerAddress) return refuse(socket, 'address');
    if (admitted.size >= limits.maxConnections) {
      const oldest = waiting.values().next();
      if (oldest.done) return refuse(socket, 'cap');
      release(oldest.value);
      oldest.value.destroy();
      counts.evicted += 1;
      noteRefusal();
    }
    perAddress.set(address, open + 1);
    admitted.set(socket, address);
    waiting.add(socket);
    socket.once('close', () => release(socket));
  });
  server.on('request', (request: { socket: Socket }) => waiting.delete(request.socket));

  return {
    started: (socket) => waiting.delete(socket),
    figures: () => ({ open: admitted.size, waiting: waiting.size, refused: { ...counts } }),
  };
}

/** manjam_http_connections (open) and manjam_http_connections_refused_total (by cap). */
export function registerConnectionMetrics(metrics: MetricsRegistry, guard: ConnectionGuard): void {
  metrics.register(
    'manjam_http_connections',
    'Open HTTP connections (API, web app, WebSocket)',
    'gauge',
    () => Promise.resolve([{ labels: {}, value: guard.figures().open }]),
  );
  metrics.register(
    'manjam_http_connections_refused_total',
    'HTTP connections closed as they were accepted: over http.maxConnections (cap) or http.maxConnectionsPerAddress (address)',
    'counter',
    () => {
      const { refused } = guard.figures();
      return Promise.resolve([
        { labels: { cap: 'connections' }, value: refused.cap },
        { labels: { cap: 'address' }, value: refused.address },
      ]);
    },
  );
  metrics.register(
    'manjam_http_connections_evicted_total',
    'HTTP connections closed before they began a request, to make room for a new one at http.maxConnections',
    'counter',
    () => Promise.resolve([{ labels: {}, value: guard.figures().refused.evicted }]),
  );
}
