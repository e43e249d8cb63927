import { dashboardSchema, hashrateQuerySchema, hashrateSeriesSchema } from '@manjam/contract';
import { defineRoute, RawJson } from '../route.js';
import type { RouteModule } from './module.js';

export const dashboardRoutes: RouteModule = ({ services }) => [
  defineRoute({
    method: 'GET',
    url: '/api/dashboard',
    tag: 'dashboard',
    auth: 'user',
    response: dashboardSchema,
    summary:
      'Hashrate per algorithm (10 min, 1 h, 24 h), active miners, unpaid balance and 24 h earnings (with their change against the previous 24 h)',
    handler: async ({ auth }) =>
      new RawJson(await services.dashboard.getJson(auth.user.id, auth.user.preferredCoin)),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/hashrate',
    tag: 'dashboard',
    auth: 'user',
    query: hashrateQuerySchema,
    response: hashrateSeriesSchema,
    summary: "Hashrate series of the user's workers on one coin's algorithm (zero-filled buckets)",
    handler: ({ auth, query }) =>
      services.dashboard.hashrate(auth.user.id, query.window, query.step, query.coin),
  }),
];
