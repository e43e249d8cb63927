// The operator console's API. Who may call it, decided once (operatorOnly):
// - not signed in, or signed in without the operator role: 404 `route-not-found`, the very answer
//   of a route that does not exist, so the console is not advertised to anyone else (before the
//   path or the body is even read); the console's routes are also left out of /api/openapi.json;
// - an operator whose session did not pass password + TOTP (2FA off, or turned on after this
//   sign-in): 403 `totp-required`, saying what to do.
// The session and its role are read from the database on every console request (no cached
// snapshot): a role taken by `manjam operator revoke` ends on the next request, in every process.
// Every write is logged and lands in the audit log (GET /api/operator/actions).
import {
  bigIdParamsSchema,
  blockIdParamsSchema,
  blockPageSchema,
  blockQuerySchema,
  liftBanRequestSchema,
  liftBanResponseSchema,
  operatorActionPageSchema,
  operatorAlertSchema,
  operatorAlertsSchema,
  operatorBansSchema,
  operatorHealthSchema,
  operatorPageQuerySchema,
  operatorPayoutRunPageSchema,
  operatorPortsSchema,
  operatorRoleRequestSchema,
  operatorRoleSchema,
  operatorWalletsSchema,
  recreditedBlockSchema,
  runningConfigSchema,
  settledRunSchema,
  settleRunRequestSchema,
  topWorkersQuerySchema,
  topWorkersSchema,
} from '@manjam/contract';
import type { SignedIn } from '../../services/auth/auth-service.js';
import { ServiceError } from '../../services/errors.js';
import type { Actor } from '../../services/operator/operator-service.js';
import { poolWallets } from '../../services/operator/pool-wallets.js';
import { stratumPorts } from '../../services/operator/stratum-ports.js';
import { defineRoute } from '../route.js';
import type { RouteModule } from './module.js';

/** The answer of a path no route has (app.ts's not-found handler). */
const noSuchRoute = () => new ServiceError(404, 'route-not-found', 'routeNotFound');

export function operatorOnly(auth: SignedIn | null): void {
  if (!auth?.user.isOperator) throw noSuchRoute();
  if (!auth.user.totpEnabled || !auth.totpPassed)
    throw new ServiceError(403, 'totp-required', 'operatorTotpRequired');
}

const actor = (auth: SignedIn | null, ip: string): Actor => {
  if (!auth) throw noSuchRoute();
  return { userId: auth.user.id, email: auth.user.email, ip };
};

const tag = 'operator';
const auth = 'optional' as const;
/** Every console route: the role checked on a session read from the database, so a revoke ends access at once. */
const gate = { guard: operatorOnly, freshSession: true } as const;

export const operatorRoutes: RouteModule = ({ deps, services }) => [
  defineRoute({
    method: 'GET',
    url: '/api/operator/health',
    tag,
    auth,
    ...gate,
    response: operatorHealthSchema,
    summary:
      'Database, each chain (height, newTipsBy, downSince), open alerts, share-log backlog, how far accounting has credited',
    handler: () => services.operator.health(),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/operator/alerts',
    tag,
    auth,
    ...gate,
    query: operatorPageQuerySchema,
    response: operatorAlertsSchema,
    summary: 'Open operator alerts, and past ones (paged), each with its runbook section',
    handler: ({ query }) => services.operator.alerts(query.page, query.pageSize),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/operator/alerts/:id/close',
    tag,
    auth,
    ...gate,
    params: bigIdParamsSchema,
    response: operatorAlertSchema,
    summary: 'Close an open alert (404 when no open alert has this id)',
    handler: ({ auth: signedIn, ip, params }) =>
      services.operator.closeAlert(actor(signedIn, ip), BigInt(params.id)),
  }),
  // A route of its own rather than a part of health or payout-runs: health is polled for the
  // chains and alerts, payout-runs is the paged history; the wallets answer "can the next run be
  // paid", read from the database (pool_wallet_balances) where accounting records each cycle.
  defineRoute({
    method: 'GET',
    url: '/api/operator/wallets',
    tag,
    auth,
    ...gate,
    response: operatorWalletsSchema,
    summary:
      "Per live coin: the pool wallet's balance and when accounting read it, what the pool owes, what the next payout run would pay and when, covered or short by how much",
    handler: () => poolWallets(deps.db, deps.config, services.now()),
  }),
  // A route of its own rather than a part of health: health is one process's state, this is the
  // port table with each port's connections (null where no Stratum listener runs in this process)
  // and its coin's shares/s and hashrate, the figures /metrics and /api/pool/stats read.
  defineRoute({
    method: 'GET',
    url: '/api/operator/ports',
    tag,
    auth,
    ...gate,
    response: operatorPortsSchema,
    summary:
      'Per live Stratum port: coin, algorithm, port, V1/V2, open connections (null in a process without Stratum), accepted shares/s over the last minute and hashrate over 10 minutes',
    handler: () => stratumPorts(services.pool, deps.pool.ports(), services.now()),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/operator/payout-runs',
    tag,
    auth,
    ...gate,
    query: operatorPageQuerySchema,
    response: operatorPayoutRunPageSchema,
    summary: 'Payout runs, newest first: state, txid, payouts and amount, failure and its detail',
    handler: ({ query }) => services.operator.payoutRuns(query.page, query.pageSize),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/operator/payout-runs/:id/settle',
    tag,
    auth,
    ...gate,
    params: bigIdParamsSchema,
    body: settleRunRequestSchema,
    response: settledRunSchema,
    summary:
      'Settle a held run as sent (by a txid) or failed (balances back), as `manjam payout-run` does: 409 payout-run-not-held for any other run',
    handler: ({ auth: signedIn, ip, params, body }) =>
      services.operator.settleRun(actor(signedIn, ip), BigInt(params.id), body),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/operator/blocks/:id/recredit',
    tag,
    auth,
    ...gate,
    params: blockIdParamsSchema,
    response: recreditedBlockSchema,
    summary:
      "Credit a returned block's payees back exactly what its orphaning reversed, once, as `manjam block-recredit` does: 409 block-not-returned or block-already-recredited otherwise",
    handler: ({ auth: signedIn, ip, params }) =>
      services.operator.recreditBlock(actor(signedIn, ip), Number(params.id)),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/operator/blocks',
    tag,
    auth,
    ...gate,
    query: blockQuerySchema,
    response: blockPageSchema,
    summary: 'Found blocks with status, confirmations and effort (the /stats list)',
    handler: ({ query }) => services.pool.blocks(query.page, query.pageSize, query.coin),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/operator/bans',
    tag,
    auth,
    ...gate,
    response: operatorBansSchema,
    summary: 'Stratum bans in force (available only where Stratum runs in this process)',
    handler: () => Promise.resolve(services.operator.bans()),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/operator/bans/lift',
    tag,
    auth,
    ...gate,
    body: liftBanRequestSchema,
    response: liftBanResponseSchema,
    summary: "Lift an address's bans (404 when it has none)",
    handler: ({ auth: signedIn, ip, body }) => services.operator.liftBan(actor(signedIn, ip), body.ip),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/operator/top-workers',
    tag,
    auth,
    ...gate,
    query: topWorkersQuerySchema,
    response: topWorkersSchema,
    summary:
      'The 50 fastest workers of all accounts over the last 10 minutes (window=10m) or hour (window=1h): account, worker, coin, hashrate, last share',
    handler: ({ query }) => services.operator.topWorkers(query.window),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/operator/config',
    tag,
    auth,
    ...gate,
    response: runningConfigSchema,
    summary: 'The configuration as running, every secret (password, key, token, URL credentials) redacted',
    handler: () => Promise.resolve(services.operator.runningConfig()),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/operator/operators',
    tag,
    auth,
    ...gate,
    body: operatorRoleRequestSchema,
    response: operatorRoleSchema,
    summary:
      'Grant or revoke the operator role by email, as `manjam operator grant|revoke` does (404 account-not-found)',
    handler: ({ auth: signedIn, ip, body }) => services.operator.setRole(actor(signedIn, ip), body),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/operator/actions',
    tag,
    auth,
    ...gate,
    query: operatorPageQuerySchema,
    response: operatorActionPageSchema,
    summary: 'The audit log: every console action with who, from where and when, the latest first',
    handler: ({ query }) => services.operator.actions(query.page, query.pageSize),
  }),
];
