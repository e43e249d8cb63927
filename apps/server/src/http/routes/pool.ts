import {
  blockPageSchema,
  blockQuerySchema,
  healthSchema,
  lookupParamsSchema,
  minerLookupSchema,
  poolPortsSchema,
  poolStatsSchema,
  searchQuerySchema,
  searchResponseSchema,
} from '@manjam/contract';
import { healthStatus } from '../../services/shared/health.js';
import { defineRoute } from '../route.js';
import type { HealthReport } from '../types.js';
import type { RouteModule } from './module.js';

export const poolRoutes: RouteModule = ({ services, deps }) => [
  defineRoute({
    method: 'GET',
    url: '/api/health',
    tag: 'pool',
    auth: 'public',
    response: healthSchema,
    summary:
      'Database, chain and operator-alert health: 503 when the pool cannot serve, degraded (200) while an operator alert is open',
    handler: async (_req, reply) => {
      const report = await deps.health().catch((error: unknown): HealthReport => ({
        ok: false,
        database: { ok: false, kind: deps.db.kind, error: (error as Error).message },
        chains: [],
        alerts: [],
      }));
      // 503 only when the pool cannot serve (database or a node down); an open operator alert
      // (stuck payout, empty wallet) shows as degraded with 200, so load balancers keep the pool.
      reply.code(report.ok ? 200 : 503);
      const status = healthStatus(report);
      return reply.send({
        status,
        database: report.database,
        chains: report.chains,
        alerts: report.alerts,
        ...(report.stratum ? { stratum: report.stratum } : {}),
      });
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/pool/stats',
    tag: 'pool',
    auth: 'public',
    response: poolStatsSchema,
    summary:
      'Per algorithm: pool hashrate, miners, network height and difficulty, fee, payout interval, port',
    handler: () => services.pool.stats(),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/pool/ports',
    tag: 'pool',
    auth: 'public',
    response: poolPortsSchema,
    summary: 'The 19-algorithm port table; live ports validate shares',
    handler: () => Promise.resolve(services.pool.ports()),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/blocks',
    tag: 'pool',
    auth: 'public',
    query: blockQuerySchema,
    response: blockPageSchema,
    summary: 'Blocks the pool found, newest first',
    handler: ({ query }) => services.pool.blocks(query.page, query.pageSize, query.coin),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/miners/lookup/:address',
    tag: 'pool',
    auth: 'public',
    rateLimit: 'search',
    params: lookupParamsSchema,
    response: minerLookupSchema,
    summary:
      'Miners of a payout address with shares and earnings (no usernames, private names or internal ids)',
    handler: ({ params }) => services.search.lookup(params.address),
  }),
  // The seed's public pool API path (GET {pool}/miners/{address}); /api/miners itself lists a
  // signed-in user's declared miners, and /api/miners/:id only takes PUT and DELETE.
  defineRoute({
    method: 'GET',
    url: '/api/miners/:address',
    tag: 'pool',
    auth: 'public',
    rateLimit: 'search',
    params: lookupParamsSchema,
    response: minerLookupSchema,
    summary: "Same as /api/miners/lookup/:address (the seed's path)",
    handler: ({ params }) => services.search.lookup(params.address),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/search',
    tag: 'pool',
    auth: 'optional',
    rateLimit: 'search',
    query: searchQuerySchema,
    response: searchResponseSchema,
    summary:
      'Search by payout address (`address` or `address.worker`); signed-in users also find their own workers by name, and their rigs (source hive) with a rig token',
    handler: async ({ query, auth }) => ({
      results: await services.search.search(query.q, auth?.user.id ?? null),
    }),
  }),
];
