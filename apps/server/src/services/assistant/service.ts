import type { Config } from '../../config/index.js';
import type { Queryable } from '../../db/types.js';
import type { MinerFacts } from './facts.js';
import { chatCompletion, LlmError, systemPrompt, type ChatMessage } from './llm.js';
import type { UserHashrate } from '../shared/hashrate.js';
import { loadMinerFacts } from './load-facts.js';
import { poolInfoFromConfig, type PoolInfo } from './pool-info.js';
import { SlidingWindowLimiter } from './rate-limit.js';
import type { CoinNetworkFact } from './estimate.js';
import { hashrateFigure } from './estimate.js';
import { answerWithRules, replyLanguage } from './rules.js';

/** The last this-many history items are passed on to the language model (the seed keeps about 10). */
export const MAX_HISTORY_ITEMS = 10;
/** Each history item is cut to this length before it goes to the model. */
export const MAX_HISTORY_CONTENT = 2_000;

/**
 * One question (the body of POST /api/assistant, already validated by the contract's
 * assistantRequestSchema: message 1..2000 characters, at most 20 history items).
 */
export interface AssistantRequest {
  message: string;
  language: 'en' | 'ar';
  history: { role: 'user' | 'assistant'; content: string }[];
}

export interface AssistantReply {
  reply: string;
  source: 'rules' | 'llm';
}

export class AssistantRateLimitError extends Error {
  constructor(readonly retryAfterMs: number) {
    super('Too many questions, please wait a moment.');
    this.name = 'AssistantRateLimitError';
  }
}

export interface AssistantDeps {
  config: Pick<Config, 'publicHost' | 'stratum' | 'accounting' | 'assistant'>;
  db: Queryable;
  logger: { warn(details: Record<string, unknown>, message: string): void };
  now?: () => Date;
  fetch?: typeof fetch;
  /** Minutes without an accepted share before a worker counts as offline (the alerts' setting). */
  offlineAfterMinutes?: number;
  rateLimit?: { max: number; windowMs: number };
  /** The user's hashrate figures as the dashboard and workers page show them (their shared snapshot). */
  hashrate?: (userId: number) => Promise<UserHashrate>;
  /** Each live coin's network difficulty, newest block reward and fee (the pool stats API), for estimates. */
  network?: () => Promise<CoinNetworkFact[]>;
}

export interface AssistantService {
  /** Answers one question; `caller.key` identifies the caller for rate limiting (user id or IP). */
  reply(request: AssistantRequest, caller: { userId: number | null; key: string }): Promise<AssistantReply>;
  readonly pool: PoolInfo;
}

export function createAssistantService(deps: AssistantDeps): AssistantService {
  const pool = poolInfoFromConfig(deps.config);
  const now = deps.now ?? (() => new Date());
  const limit = deps.rateLimit ?? { max: 20, windowMs: 60_000 };
  const limiter = new SlidingWindowLimiter(limit.max, limit.windowMs);
  const offlineAfterMs = (deps.offlineAfterMinutes ?? 10) * 60_000;

  async function facts(userId: number | null, at: Date): Promise<MinerFacts | null> {
    if (userId === null) return null;
    const loaded = await loadMinerFacts(deps.db, userId, {
      now: at,
      offlineAfterMs,
      defaultThresholds: deps.config.accounting.payoutThresholds,
      settlementHourUtc: deps.config.accounting.settlementHourUtc,
      ...(deps.hashrate ? { hashrate: deps.hashrate } : {}),
    });
    return loaded ?? null;
  }

  return {
    pool,
    async reply(request, caller) {
      const verdict = limiter.hit(caller.key, now().getTime());
      if (!verdict.allowed) throw new AssistantRateLimitError(verdict.retryAfterMs);
      const at = now();
      const [minerFacts, network] = await Promise.all([
        facts(caller.userId, at),
        // Only a message that names a hashrate can ask for an estimate: read the network then.
        deps.network && hashrateFigure(request.message) ? deps.network() : Promise.resolve([]),
      ]);
      const draft = answerWithRules(request.message, {
        pool,
        facts: minerFacts,
        now: at,
        uiLanguage: request.language,
        network,
      });
      const llm = deps.config.assistant.llm;
      if (!llm) return { reply: draft, source: 'rules' };
      const language = replyLanguage(request.message, request.language);
      const messages: ChatMessage[] = [
        { role: 'system', content: systemPrompt(pool, minerFacts, language, draft, at) },
        ...request.history
          .slice(-MAX_HISTORY_ITEMS)
          .map((item) => ({ role: item.role, content: item.content.slice(0, MAX_HISTORY_CONTENT) })),
        { role: 'user', content: request.message },
      ];
      try {
        const reply = await chatCompletion(llm, messages, deps.fetch);
        return { reply, source: 'llm' };
      } catch (error) {
        const reason = error instanceof LlmError ? error.reason : 'unexpected';
        deps.logger.warn(
          { reason, err: (error as Error).message },
          'assistant language model failed; answering with the rules',
        );
        return { reply: draft, source: 'rules' };
      }
    },
  };
}
