import {
  payoutPageSchema,
  payoutQuerySchema,
  revenueSummarySchema,
  rewardPageSchema,
  rewardQuerySchema,
} from '@manjam/contract';
import { defineRoute } from '../route.js';
import type { RouteModule } from './module.js';

const attachment = (name: string) => `attachment; filename="${name}"`;

export const revenueRoutes: RouteModule = ({ services }) => [
  defineRoute({
    method: 'GET',
    url: '/api/revenue/summary',
    tag: 'revenue',
    auth: 'user',
    response: revenueSummarySchema,
    summary:
      "Per coin: unpaid balance, today's accrued credits (estimated until the daily close) and immature block credits",
    handler: ({ auth }) => services.revenue.summary(auth.user.id),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/rewards',
    tag: 'revenue',
    auth: 'user',
    query: rewardQuerySchema,
    response: rewardPageSchema,
    summary: 'Daily settlements, paged; search by date, filter by coin',
    handler: ({ auth, query }) => services.revenue.rewards(auth.user.id, query),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/payouts',
    tag: 'revenue',
    auth: 'user',
    query: payoutQuerySchema,
    response: payoutPageSchema,
    summary: 'Payouts, paged; search by transaction id or date, filter by coin and status',
    handler: ({ auth, query }) => services.revenue.payouts(auth.user.id, query),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/rewards.csv',
    tag: 'revenue',
    auth: 'user',
    query: rewardQuerySchema,
    produces: 'text/csv',
    summary: 'Rewards as CSV (same filters)',
    handler: async ({ auth, query }, reply) => {
      reply.header('content-disposition', attachment('manjam-rewards.csv'));
      return services.revenue.rewardsCsv(auth.user.id, query);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/payouts.csv',
    tag: 'revenue',
    auth: 'user',
    query: payoutQuerySchema,
    produces: 'text/csv',
    summary: 'Payouts as CSV (same filters)',
    handler: async ({ auth, query }, reply) => {
      reply.header('content-disposition', attachment('manjam-payouts.csv'));
      return services.revenue.payoutsCsv(auth.user.id, query);
    },
  }),
];
