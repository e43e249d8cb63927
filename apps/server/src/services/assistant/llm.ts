import type { MinerFacts } from './facts.js';
import type { CoinId } from '../../config/constants.js';
import { formatCoinAmount } from '@manjam/protocol';
import { formatHashrate } from '../shared/format.js';
import type { Language } from './matcher.js';
import type { PoolInfo } from './pool-info.js';

// Optional language-model mode: an OpenAI-compatible chat completion. Any failure (HTTP error,
// timeout, network, unexpected body) raises LlmError and the caller falls back to the rules.

export interface LlmConfig {
  /** Base URL (e.g. https://api.openai.com/v1) or the full .../chat/completions URL. */
  url: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export class LlmError extends Error {
  constructor(
    readonly reason: 'http' | 'timeout' | 'network' | 'format',
    message: string,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export function completionsUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith('/chat/completions') ? trimmed : `${trimmed}/chat/completions`;
}

export async function chatCompletion(
  config: LlmConfig,
  messages: ChatMessage[],
  fetchImpl: typeof fetch = fetch,
): Promise<string> {
  let response: Response;
  try {
    response = await fetchImpl(completionsUrl(config.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${config.apiKey}` },
      body: JSON.stringify({ model: config.model, messages, temperature: 0.2, max_tokens: 600 }),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new LlmError('timeout', `no answer within ${config.timeoutMs} ms`);
    throw new LlmError('network', (error as Error).message);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new LlmError('timeout', `no answer within ${config.timeoutMs} ms`);
    throw new LlmError(response.ok ? 'format' : 'http', `HTTP ${response.status}, body is not JSON`);
  }
  if (!response.ok) throw new LlmError('http', `HTTP ${response.status}`);
  const content = (body as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message
    ?.content;
  if (typeof content !== 'string' || content.trim() === '')
    throw new LlmError('format', 'no message content in the answer');
  return content.trim();
}

function factsText(facts: MinerFacts | null): string {
  if (!facts) return 'The user is not signed in: no personal data.';
  const workers = facts.workers.map(
    (worker) =>
      `${worker.name} (${worker.coin}): ${worker.online ? 'online' : 'offline'}, ${formatHashrate(worker.hashrate)} now, ` +
      `${formatHashrate(worker.hashrate24h)} 24h avg, last share ${worker.lastShareAt?.toISOString() ?? 'never'}, ` +
      `${worker.rejectedPercent.toFixed(1)}% rejected`,
  );
  const money = facts.money.map(
    (entry) =>
      `${entry.coin}: unpaid ${formatCoinAmount(entry.balance, entry.coin)}, earned today ${formatCoinAmount(entry.earnedToday, entry.coin)}, ` +
      `last payout run ${entry.lastPayoutRunAt?.toISOString() ?? 'none yet'}`,
  );
  return [
    `Signed-in user: ${facts.username}; payout threshold per coin: ${thresholdList(facts)}.`,
    `Workers: ${workers.join('; ') || 'none'}.`,
    `Balances: ${money.join('; ') || 'none'}.`,
  ].join('\n');
}

/** "BTC 0.01 BTC, LTC 0.01 LTC, ...": the coins the miner has money or workers in, else every coin. */
function thresholdList(facts: MinerFacts): string {
  const mined = new Set([...facts.money.map((m) => m.coin), ...facts.workers.map((w) => w.coin)]);
  return Object.entries(facts.payoutThresholds)
    .filter(([coin]) => mined.size === 0 || mined.has(coin as CoinId))
    .map(([coin, units]) => formatCoinAmount(units, coin))
    .join(', ');
}

/** The system prompt: who the assistant is, the pool's real facts, the user's live facts and the rule engine's draft. */
export function systemPrompt(
  pool: PoolInfo,
  facts: MinerFacts | null,
  language: Language,
  draft: string,
  now: Date,
): string {
  const ports = pool.ports
    .map(
      (port) =>
        `${port.algorithm}: stratum+tcp://${pool.host}:${port.port}${port.live ? ' (live)' : ' (not live yet)'}`,
    )
    .join('; ');
  return [
    'You are the Manjam Mining Assistant for the Manjam mining pool (MENA region). Answer briefly and only about mining and this pool.',
    `Answer in ${language === 'ar' ? 'Arabic' : 'English'}. Keep URLs, hashes and numbers exactly as given.`,
    `Current time: ${now.toISOString()}. Pool host ${pool.host}. Ports: ${ports}.`,
    `Payouts every ${pool.payoutIntervalHours} h when a coin's balance reaches the user's threshold for that coin (one threshold per coin). Stratum username account.worker or wallet address, password x.`,
    factsText(facts),
    `A rule-based draft answer (accurate, use its facts): ${draft}`,
    'Never invent balances, hashrates or ports that are not listed above.',
  ].join('\n');
}
