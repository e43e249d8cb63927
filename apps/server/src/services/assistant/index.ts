export { createAssistantService, AssistantRateLimitError, MAX_HISTORY_ITEMS } from './service.js';
export type { AssistantService, AssistantDeps, AssistantRequest, AssistantReply } from './service.js';
export { answerWithRules, replyLanguage, type RuleContext } from './rules.js';
export { detectLanguage, type Language } from './matcher.js';
export { poolInfoFromConfig, type PoolInfo, type PoolPort } from './pool-info.js';
export { QUICK_REPLIES, FALLBACK, PROFITABILITY_LINKS } from './replies.js';
export { SEED_ALGORITHMS, ALGORITHM_TABLE, type SeedAlgorithm } from './algorithms.js';
export { loadMinerFacts } from './load-facts.js';
export type { MinerFacts, WorkerFact, CoinMoneyFact } from './facts.js';
