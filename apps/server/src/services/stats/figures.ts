import {
  ALGORITHMS,
  API_ALGORITHM_ID,
  poolCoinOr,
  portRowOfPoolCoin,
  type AlgorithmId,
} from '@manjam/contract';
import { algorithmOf, COINS, expectedHashesPerShare, isAlgorithm } from '@manjam/protocol';
import type { HashFactors } from '../../db/repositories/queries-activity.js';

/** Expected hashes per unit of share difficulty, per coin (the coin's Stratum difficulty unit). */
export const HASH_FACTORS = Object.fromEntries(
  COINS.map((coin) => [coin, expectedHashesPerShare(1, algorithmOf(coin))]),
) as HashFactors;

/** A signed percent with one decimal: '+12.5%', '-3.0%', '0.0%'; 'new' when there is nothing to compare with. */
export function percentChange(current: number | bigint, previous: number | bigint): string {
  const cur = Number(current);
  const prev = Number(previous);
  if (!Number.isFinite(cur) || !Number.isFinite(prev)) return '0.0%';
  if (prev === 0) return cur === 0 ? '0.0%' : 'new';
  const pct = ((cur - prev) / Math.abs(prev)) * 100;
  const rounded = Math.round(pct * 10) / 10;
  if (rounded === 0) return '0.0%';
  return `${rounded > 0 ? '+' : '-'}${Math.abs(rounded).toFixed(1)}%`;
}

/** Our algorithm id for a worker row ('sha256d' from Stratum reads 'sha256'). */
export function algorithmId(raw: string, coin: string): AlgorithmId {
  const normalized = raw.toLowerCase().replace(/[^a-z0-9]/g, '');
  if ((ALGORITHMS as readonly string[]).includes(normalized)) return normalized as AlgorithmId;
  // A protocol name (Stratum writes 'sha256d'): the API's id of it; an unknown one: the coin's row of PORT_TABLE.
  if (isAlgorithm(normalized)) return API_ALGORITHM_ID[normalized];
  return portRowOfPoolCoin(poolCoinOr(coin)).account;
}

/** First 6 and last 4 characters of long names (the seed's wallet shortening). */
export function shorten(text: string): string {
  return text.length > 10 ? `${text.slice(0, 6)}…${text.slice(-4)}` : text;
}
