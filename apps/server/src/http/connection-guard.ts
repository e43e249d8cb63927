// Caps on an HTTP listener's connections, applied as each is accepted, before any byte is read:
// a connection past the listener's cap (`http.maxConnections`) is closed by Node before a socket
// object is even made; one past its address's cap (`http.maxConnectionsPerAddress`) is destroyed
// by the first 'connection' listener, ahead of the HTTP parser. The address is the socket's own:
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
  /** Connections closed as they were accepted, by the cap that refused them. */
  refused: { cap: number; address: number };
}

export interface ConnectionGuard {
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

/** Puts the caps on `server` (call before it listens). */
export function guardConnections(
  server: Server | HttpServer,
  limits: ConnectionLimits,
  logger: Logger,
): ConnectionGuard {
  const perAddress = new Map<string, number>();
  const refused = { cap: 0, address: 0 };
  const logged = { cap: 0, address: 0, atMs: 0 };
  const noteRefusal = () => {
    const now = Date.now();
    if (now - logged.atMs < REFUSAL_LOG_MS) return;
    logger.warn(
      {
        overCap: refused.cap - logged.cap,
        overAddressCap: refused.address - logged.address,
        limits,
      },
      'http connections refused at accept (over the connection caps) since the last such line',
    );
    Object.assign(logged, refused, { atMs: now });
  };

  server.maxConnections = limits.maxConnections;
  server.on('drop', () => {
    refused.cap += 1;
    noteRefusal();
  });
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const open = perAddress.get(address) ?? 0;
    if (open >= limits.maxConnectionsPerAddress) {
      refused.address += 1;
      socket.destroy();
      noteRefusal();
      return;
    }
    perAddress.set(address, open + 1);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });

  return {
    figures: () => {
      let open = 0;
      for (const n of perAddress.values()) open += n;
      return { open, refused: { ...refused } };
    },
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
}
