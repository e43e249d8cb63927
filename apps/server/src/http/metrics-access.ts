import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../config/index.js';
import { ServiceError } from '../services/errors.js';

const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const digest = (text: string) => createHash('sha256').update(text).digest();

/** What the access rule reads of a request (a Fastify request or a plain node:http one). */
export interface MetricsRequest {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string | undefined };
}

/**
 * Who may read /metrics: with http.metricsToken set, a request carrying `Authorization: Bearer
 * <token>` (401 otherwise); without it, only a direct loopback connection with no proxy header
 * (403 otherwise), so a reverse proxy on the same host does not publish it.
 */
export function assertMetricsAccess(request: MetricsRequest, config: Config): void {
  const token = config.http.metricsToken;
  if (token !== undefined) {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!given || !timingSafeEqual(digest(given), digest(token))) {
      throw new ServiceError(401, 'unauthorized', 'metricsTokenRequired', undefined, {
        'www-authenticate': 'Bearer realm="metrics"',
      });
    }
    return;
  }
  const peer = request.socket.remoteAddress ?? '';
  if (!LOOPBACK.has(peer) || PROXY_HEADERS.some((name) => request.headers[name] !== undefined)) {
    throw new ServiceError(403, 'forbidden', 'metricsLocalOnly');
  }
}
