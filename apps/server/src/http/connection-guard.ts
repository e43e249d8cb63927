// Caps on an HTTP listener's connections, applied as each is accepted, before any byte is read:
// the first 'connection' listener, ahead of the HTTP parser, destroys a connection past its
// address's cap (`http.maxConnectionsPerAddress`), and at the listener's cap
// (`http.maxConnections`) either makes room by closing a connection that holds its slot past its
// due (see guardConnections), or refuses the new one. A started request whose body arrives
// slower than `http.minBodyBytesPerSecond` is closed. The address is the socket's own:
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
  /** Of those, WebSockets. */
  websockets: number;
  /**
   * Connections closed as they were accepted, by the cap that refused them; and connections
   * closed before they began a request, to make room for a new one at the listener's cap.
   */
  refused: { cap: number; address: number; evicted: number };
  /** Requests closed because their body arrived slower than the body rate. */
  slowBodies: number;
}

export interface ConnectionGuard {
  /**
   * A request began on `socket` (it is no longer a candidate for eviction as a connection that
   * never began one); `websocket`: it is a WebSocket upgrade, and the socket now holds one.
   */
  started(socket: Socket, websocket?: boolean): void;
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

/** The slowest a started request may send its body (http.minBodyBytesPerSecond, http.bodyGraceSeconds). */
export interface BodyRate {
  /** Bytes a second, averaged since the request began. */
  minBytesPerSecond: number;
  /** A request is judged once it has been sending its body this long. */
  graceMs: number;
}

export function bodyRate(http: Config['http']): BodyRate {
  return { minBytesPerSecond: http.minBodyBytesPerSecond, graceMs: http.bodyGraceSeconds * 1000 };
}

/** How often started requests are checked against the body rate. */
const BODY_CHECK_MS = 500;
/** A request reading its body below the rate this long may be evicted at the listener's cap. */
const EVICTABLE_SLOW_MS = 1_000;

type Use = 'waiting' | 'request' | 'websocket';

interface Slot {
  address: string;
  use: Use;
  /** When the connection took its current use. */
  sinceMs: number;
  /** The request being read (use 'request'), and the socket's bytes read when it began. */
  request?: { complete: boolean };
  bytesAtStart: number;
}

/**
 * Puts the caps on `server` (call before it listens). At the listener's cap, a new connection
 * takes the place of, in this order: the oldest connection that has not begun a request yet
 * (held open with headers that never end, or never a byte); a request sending its body below
 * the body rate; the oldest WebSocket or unfinished request body of the address that holds the
 * most connections (never the new connection's own address). Strangers holding connections then only push out each other, while
 * a client that sends its request at once gets in. With none such, the new connection is
 * refused. Every started request whose body arrives slower than `body.minBytesPerSecond` (averaged,
 * after `body.graceMs`) is closed. Call `started` for every request (a WebSocket upgrade is not
 * seen by the server's 'request' event).
 */
export function guardConnections(
  server: Server | HttpServer,
  limits: ConnectionLimits,
  logger: Logger,
  body?: BodyRate,
): ConnectionGuard {
  const perAddress = new Map<string, number>();
  /** Admitted sockets and what they are used for. */
  const admitted = new Map<Socket, Slot>();
  /** Admitted sockets with no request begun, oldest first (a Set keeps insertion order). */
  const waiting = new Set<Socket>();
  /** Sockets reading a request (a body may still be arriving), oldest first. */
  const reading = new Set<Socket>();
  /** WebSockets by address. */
  const websockets = new Map<string, Set<Socket>>();
  const counts = { cap: 0, address: 0, evicted: 0, slowBody: 0 };
  const logged = { cap: 0, address: 0, evicted: 0, slowBody: 0, atMs: 0 };
  const noteRefusal = () => {
    const now = Date.now();
    if (now - logged.atMs < REFUSAL_LOG_MS) return;
    logger.warn(
      {
        overCap: counts.cap - logged.cap,
        overAddressCap: counts.address - logged.address,
        evicted: counts.evicted - logged.evicted,
        slowBodies: counts.slowBody - logged.slowBody,
        limits,
        body,
      },
      'http connections refused, evicted or cut (caps, slow bodies) since the last such line',
    );
    Object.assign(logged, counts, { atMs: now });
  };
  const leave = (socket: Socket, slot: Slot) => {
    waiting.delete(socket);
    reading.delete(socket);
    if (slot.use === 'websocket') {
      const set = websockets.get(slot.address);
      set?.delete(socket);
      if (set?.size === 0) websockets.delete(slot.address);
    }
  };
  const use = (socket: Socket, next: Use, request?: { complete: boolean }) => {
    const slot = admitted.get(socket);
    if (!slot || (slot.use === next && slot.request === request)) return;
    leave(socket, slot);
    Object.assign(slot, { use: next, sinceMs: Date.now(), request, bytesAtStart: socket.bytesRead });
    if (next === 'waiting') waiting.add(socket);
    else if (next === 'request') reading.add(socket);
    else {
      const set = websockets.get(slot.address) ?? new Set<Socket>();
      set.add(socket);
      websockets.set(slot.address, set);
    }
  };
  const release = (socket: Socket) => {
    const slot = admitted.get(socket);
    if (slot === undefined) return;
    admitted.delete(socket);
    leave(socket, slot);
    const left = (perAddress.get(slot.address) ?? 1) - 1;
    if (left > 0) perAddress.set(slot.address, left);
    else perAddress.delete(slot.address);
  };
  const refuse = (socket: Socket, why: 'cap' | 'address') => {
    counts[why] += 1;
    socket.destroy();
    noteRefusal();
  };
  /** True when a started request's body arrives slower than the rate after `afterMs`. */
  const slow = (socket: Socket, slot: Slot, now: number, afterMs: number): boolean => {
    if (!body || slot.request?.complete !== false) return false;
    const elapsed = now - slot.sinceMs;
    if (elapsed < afterMs) return false;
    return ((socket.bytesRead - slot.bytesAtStart) * 1000) / elapsed < body.minBytesPerSecond;
  };
  /** The connection to close for a newcomer from `address` at the listener's cap, if any. */
  const victim = (address: string): Socket | undefined => {
    const oldest = waiting.values().next();
    if (!oldest.done) return oldest.value;
    const now = Date.now();
    for (const socket of reading) {
      const slot = admitted.get(socket);
      if (slot && slow(socket, slot, now, Math.min(EVICTABLE_SLOW_MS, body?.graceMs ?? 0))) return socket;
    }
    // The address holding the most connections yields its oldest WebSocket or unfinished body.
    let heaviest: string | undefined;
    let most = 1;
    for (const [holder, open] of perAddress)
      if (holder !== address && open > most) [heaviest, most] = [holder, open];
    if (heaviest === undefined) return undefined;
    for (const [socket, slot] of admitted)
      if (
        slot.address === heaviest &&
        (slot.use === 'websocket' || (slot.use === 'request' && slot.request?.complete === false))
      )
        return socket;
    return undefined;
  };

  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const open = perAddress.get(address) ?? 0;
    if (open >= limits.maxConnectionsPerAddress) return refuse(socket, 'address');
    if (admitted.size >= limits.maxConnections) {
      const out = victim(address);
      if (!out) return refuse(socket, 'cap');
      release(out);
      out.destroy();
      counts.evicted += 1;
      noteRefusal();
    }
    perAddress.set(address, open + 1);
    admitted.set(socket, { address, use: 'waiting', sinceMs: Date.now(), bytesAtStart: 0 });
    waiting.add(socket);
    socket.once('close', () => release(socket));
  });
  server.on('request', (request: { socket: Socket; complete: boolean }) =>
    use(request.socket, 'request', request),
  );

  const check = body
    ? setInterval(() => {
        const now = Date.now();
        for (const socket of reading) {
          const slot = admitted.get(socket);
          if (!slot || !slow(socket, slot, now, body.graceMs)) continue;
          release(socket);
          socket.destroy();
          counts.slowBody += 1;
          noteRefusal();
        }
      }, BODY_CHECK_MS)
    : undefined;
  check?.unref();
  server.once('close', () => clearInterval(check));

  return {
    started: (socket, websocket = false) => {
      if (websocket) use(socket, 'websocket');
      else if (admitted.get(socket)?.use === 'waiting') use(socket, 'request', { complete: true });
    },
    figures: () => ({
      open: admitted.size,
      waiting: waiting.size,
      websockets: [...websockets.values()].reduce((sum, set) => sum + set.size, 0),
      refused: { cap: counts.cap, address: counts.address, evicted: counts.evicted },
      slowBodies: counts.slowBody,
    }),
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
    'HTTP connections closed to make room for a new one at http.maxConnections (not begun a request, a slow body, a WebSocket of the address holding the most)',
    'counter',
    () => Promise.resolve([{ labels: {}, value: guard.figures().refused.evicted }]),
  );
  metrics.register(
    'manjam_http_slow_bodies_closed_total',
    'HTTP requests closed because their body arrived slower than http.minBodyBytesPerSecond',
    'counter',
    () => Promise.resolve([{ labels: {}, value: guard.figures().slowBodies }]),
  );
}
