import type { SignedIn } from '../services/auth/auth-service.js';
import { ServiceError } from '../services/errors.js';
import type { ApiTokensService } from '../services/monitoring/api-tokens.js';
import type { RouteMeta } from './route.js';

/**
 * The routes a read-only API token (`Authorization: Bearer mj_ro_...`) may call: the account's
 * own figures, never its settings, security, notifications or anything that writes. One list,
 * read by the route registration (the gate below), the OpenAPI document and docs/API.md;
 * api-tokens.int.test.ts checks every entry names a route the app serves.
 */
export const TOKEN_READABLE_ROUTES: readonly string[] = [
  'GET /api/dashboard',
  'GET /api/hashrate',
  'GET /api/workers',
  'GET /api/workers/:id',
  'GET /api/workers/:name/connection',
  'GET /api/miners',
  'GET /api/revenue/summary',
  'GET /api/rewards',
  'GET /api/rewards.csv',
  'GET /api/payouts',
  'GET /api/payouts.csv',
];
const READABLE = new Set(TOKEN_READABLE_ROUTES);

export const tokenReadable = (route: Pick<RouteMeta, 'method' | 'url'>): boolean =>
  READABLE.has(`${route.method} ${route.url}`);

const readOnly = () => new ServiceError(403, 'read-only-token', 'readOnlyToken');

/**
 * What a request carrying a read-only API token is, on `route`:
 * - any method but GET: 403 `read-only-token`, whatever the token (it never writes);
 * - a public GET, or one where signing in is optional (search): answered as to anyone (the
 *   token is not looked at);
 * - otherwise the token must be live (else 401) and within its per-minute budget (else 429), and
 *   the route one of TOKEN_READABLE_ROUTES (else 403 `read-only-token`).
 * The account it reads is answered as a signed-in user with no session (sessionId 0).
 */
export async function apiTokenAccess(
  tokens: ApiTokensService,
  token: string,
  route: RouteMeta,
): Promise<SignedIn | null> {
  if (route.method !== 'GET') throw readOnly();
  if (route.auth !== 'user') return null;
  const user = await tokens.authenticate(token);
  if (!tokenReadable(route)) throw readOnly();
  return { user, sessionId: 0, totpPassed: false };
}
