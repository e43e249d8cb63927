import {
  DEFAULT_POOL_COIN,
  estimateDailyCoins,
  hashesPerDifficulty,
  hashesPerSecondOf,
  hashrateUnitOf,
  HASHRATE_UNITS,
  type HashrateUnit,
} from '@manjam/contract';
import { baseUnitsToDecimal, decimalsOf } from '@manjam/protocol';
import type { CoinId } from '../../config/constants.js';
import { text } from '../../i18n/index.js';
import { findAlgorithms, normalize, type Language, type Prepared } from './matcher.js';
import { algorithmOfCoin, type PoolInfo } from './pool-info.js';

// "What would I earn with 100 TH/s?": an estimate for the hashrate the miner names, with the
// calculator's formula (contract estimateDailyCoins, one place) and the pool's live figures.
// Never the asker's own credits: those answer "what did I earn".

/** What the pool knows of a coin's network now: /api/pool/stats and the newest block /stats lists. */
export interface CoinNetworkFact {
  coin: CoinId;
  /** Network difficulty in the pool's Stratum unit (hashesPerDifficulty); null until a tip is known. */
  difficulty: number | null;
  /** Reward of the newest non-orphaned block the pool found, base units; null before the first. */
  blockReward: bigint | null;
  /** Pool fee, percent. */
  feePercent: number;
}

export interface HashrateFigure {
  value: number;
  unit: HashrateUnit;
}

const UNIT_BY_PREFIX: Record<string, HashrateUnit> = Object.fromEntries(
  HASHRATE_UNITS.map((unit) => [unit.slice(0, unit.indexOf('H')).toLowerCase(), unit]),
);
// Arabic unit words: "100 تيرا هاش" / "5 كيلو هاش في الثانية".
const ARABIC_PREFIXES: Record<string, string> = {
  كيلو: 'k',
  ميجا: 'm',
  ميغا: 'm',
  جيجا: 'g',
  غيغا: 'g',
  تيرا: 't',
  بيتا: 'p',
  اكسا: 'e',
};
const LATIN_FIGURE = /(\d+(?:[.,]\d+)?)\s*([kmgtpe]?)h(?:ash(?:es)?)?\s*(?:\/\s*s|ps|\/sec)\b/i;
const ARABIC_FIGURE = /(\d+(?:[.,]\d+)?)\s*(كيلو|ميجا|ميغا|جيجا|غيغا|تيرا|بيتا|اكسا)\s*هاش/u;

/** The hashrate a message names ("100 TH/s", "2.5 GH/s", "٥ كيلو هاش"), if any. */
export function hashrateFigure(message: string): HashrateFigure | undefined {
  const normalized = normalize(message).replace(/\u066b/g, '.');
  const latin = LATIN_FIGURE.exec(normalized);
  const arabic = latin ? null : ARABIC_FIGURE.exec(normalized);
  const match = latin ?? arabic;
  if (!match?.[1]) return undefined;
  const prefix = latin ? (match[2] ?? '').toLowerCase() : (ARABIC_PREFIXES[match[2] ?? ''] ?? '');
  const unit = UNIT_BY_PREFIX[prefix];
  const value = Number(match[1].replace(',', '.'));
  return unit && Number.isFinite(value) && value > 0 ? { value, unit } : undefined;
}

/** The coin to estimate: the one the message names, else a live coin counted in that unit, else the default. */
export function estimateCoin(prepared: Prepared, figure: HashrateFigure, pool: PoolInfo): CoinId {
  const live = pool.ports.flatMap((port) => (port.live && port.coin ? [port.coin] : []));
  const named = findAlgorithms(prepared)
    .map((algorithm) => live.find((coin) => algorithmOfCoin(coin) === algorithm))
    .find((coin) => coin !== undefined);
  return named ?? live.find((coin) => hashrateUnitOf(coin) === figure.unit) ?? DEFAULT_POOL_COIN;
}

export function estimateAnswer(
  figure: HashrateFigure,
  coin: CoinId,
  network: readonly CoinNetworkFact[],
  language: Language,
): string {
  const hashrate = `${figure.value} ${figure.unit}`;
  const algorithm = algorithmOfCoin(coin);
  const fact = network.find((entry) => entry.coin === coin);
  const values = { hashrate, algorithm, coin };
  if (!fact || fact.difficulty === null) return text(language, 'assistant.estimate.noDifficulty', values);
  if (fact.blockReward === null) return text(language, 'assistant.estimate.noBlock', values);
  const reward = Number(baseUnitsToDecimal(fact.blockReward, decimalsOf(coin), 0));
  const daily = estimateDailyCoins({
    hashesPerSecond: hashesPerSecondOf(figure.value, figure.unit),
    difficulty: fact.difficulty,
    hashesPerDifficulty: hashesPerDifficulty(coin),
    blockReward: reward,
    feePercent: fact.feePercent,
  });
  if (daily === null) return text(language, 'assistant.estimate.noDifficulty', values);
  const amount = (days: number) => `${coinFigure(daily * days)} ${coin}`;
  return text(language, 'assistant.estimate', {
    ...values,
    daily: amount(1),
    weekly: amount(7),
    monthly: amount(30),
    difficulty: difficultyFigure(fact.difficulty),
    reward: `${coinFigure(reward)} ${coin}`,
    fee: `${fact.feePercent.toFixed(1)}%`,
  });
}

/** Six significant digits, never in exponent form ("0.00012345", "1,234.57"). */
function coinFigure(value: number): string {
  return new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6 }).format(value);
}

function difficultyFigure(value: number): string {
  return value >= 1000
    ? new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 3 }).format(value)
    : String(Number(value.toPrecision(3)));
}
