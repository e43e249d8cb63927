import { assistantRequestSchema, assistantResponseSchema } from '@manjam/contract';
import { AssistantRateLimitError, createAssistantService } from '../../services/assistant/index.js';
import { ServiceError } from '../../services/errors.js';
import { defineRoute } from '../route.js';
import type { RouteModule } from './module.js';

/**
 * POST /api/assistant: the mining assistant. A visitor gets the rule engine's answers; a signed-in
 * miner (optional bearer token) also gets answers from their live workers and balance. Limited per
 * user (or IP for visitors) by the assistant service: 20 questions a minute.
 */
export const assistantRoutes: RouteModule = ({ deps, services }) => {
  const clock = deps.now;
  const assistant = createAssistantService({
    config: deps.config,
    db: deps.db,
    logger: deps.logger,
    ...(clock ? { now: () => new Date(clock()) } : {}),
    // The same figures as the dashboard, sidebar and workers page: their shared workers snapshot.
    hashrate: async (userId) => {
      const snapshot = await services.workers.snapshot(userId);
      return { workers: snapshot.byWorker, algorithms: snapshot.hashrates };
    },
    // Estimates use what /stats shows: each live coin's difficulty and fee, and its newest block's reward.
    network: async () => {
      const stats = await services.pool.stats();
      const coins = [...new Set(stats.algorithms.map((row) => row.coin))];
      return Promise.all(
        coins.map(async (coin) => {
          const row = stats.algorithms.find((entry) => entry.coin === coin);
          const blocks = await services.pool.blocks(1, 20, coin);
          const newest = blocks.items.find((block) => block.status !== 'orphaned');
          return {
            coin,
            difficulty: row?.networkDifficulty ?? null,
            blockReward: newest ? BigInt(newest.reward) : null,
            feePercent: row?.fee ?? 0,
          };
        }),
      );
    },
  });
  return [
    defineRoute({
      method: 'POST',
      url: '/api/assistant',
      tag: 'assistant',
      auth: 'optional',
      body: assistantRequestSchema,
      response: assistantResponseSchema,
      summary:
        'Ask the mining assistant (English or Arabic); signed-in miners get answers from their live data',
      handler: async ({ body, auth, ip }) => {
        const userId = auth?.user.id ?? null;
        try {
          const answer = await assistant.reply(body, {
            userId,
            key: userId !== null ? `user:${userId}` : `ip:${ip}`,
          });
          return { reply: answer.reply };
        } catch (error) {
          if (!(error instanceof AssistantRateLimitError)) throw error;
          const retryAfter = String(Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
          throw new ServiceError(429, 'rate-limited', 'rateLimited', undefined, {
            'retry-after': retryAfter,
          });
        }
      },
    }),
  ];
};
