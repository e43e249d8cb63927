import type { CoinMoneyFact, MinerFacts, WorkerFact } from './facts.js';
import { formatCoinAmount } from '@manjam/protocol';
import { text } from '../../i18n/index.js';
import { formatDuration, formatEvery, formatHashrate, formatTime } from '../shared/format.js';
import type { Language, Prepared } from './matcher.js';
import { algorithmOfCoin, portsOf, stratumUrl, type PoolInfo } from './pool-info.js';

// Answers from the signed-in miner's live facts. Every figure comes from `facts`; nothing is made up.

/** Where the web app sets the payout address (Settings, Wallet section). */
export const SETTINGS_WALLET_PATH = '/settings?tab=wallet';

export function hashrateAnswer(facts: MinerFacts, language: Language): string {
  if (facts.workers.length === 0) return noWorkers(language);
  // Per algorithm, never summed across algorithms: the dashboard's and workers page's figures.
  const parts = facts.hashrates.map((figures) => {
    const workers = facts.workers.filter((worker) => worker.coin === figures.coin);
    const online = workers.filter((worker) => worker.online).length;
    const count = text(language, 'assistant.hashrate.workers', { count: workers.length });
    return text(language, 'assistant.hashrate.coin', {
      coin: figures.coin,
      algorithm: algorithmOfCoin(figures.coin),
      now: formatHashrate(figures.realtime),
      day: formatHashrate(figures.day),
      online,
      workers: count,
    });
  });
  return text(language, 'assistant.hashrate', { parts: parts.join(' | ') });
}

function noWorkers(language: Language): string {
  return text(language, 'assistant.noWorkers');
}

/** The worker the message names (whole word, case-insensitive), if any. */
export function namedWorker(facts: MinerFacts, prepared: Prepared): WorkerFact | undefined {
  const words = new Set(prepared.words);
  const raw = prepared.raw.toLowerCase();
  return facts.workers.find((worker) => {
    const name = worker.name.toLowerCase();
    return (
      words.has(name) ||
      new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(name)}($|[^\\p{L}\\p{N}])`, 'u').test(raw)
    );
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A name after "worker"/"rig"/"العامل" that matches none of the miner's workers, only when it reads as
 * a worker name (quoted, or with a digit, "_", "." or "-": "rig7", "s19-a"): "Why is my worker
 * offline?" and "لماذا العامل غير متصل؟" name no worker, and "offline"/"غير" are not taken for one.
 */
export function askedWorkerName(prepared: Prepared): string | undefined {
  const match = /(?:worker|rig|العامل|عامل|الجهاز)\s+(["'«]?)([\p{L}\p{N}_.-]{1,64})/iu.exec(prepared.raw);
  const name = match?.[2];
  if (!name) return undefined;
  return match[1] || /[\d_.-]/.test(name) ? name.replace(/[.-]+$/, '') : undefined;
}

export function workerAnswer(
  facts: MinerFacts,
  pool: PoolInfo,
  language: Language,
  now: Date,
  prepared: Prepared,
): string {
  const worker = namedWorker(facts, prepared);
  if (!worker) {
    const asked = askedWorkerName(prepared);
    const offline = facts.workers.filter((entry) => !entry.online).map((entry) => entry.name);
    if (asked) {
      const known = facts.workers.map((entry) => entry.name).join(', ') || '-';
      return text(language, 'assistant.worker.unknown', { asked, known });
    }
    if (facts.workers.length === 0) return noWorkers(language);
    const [only] = offline;
    const single = offline.length === 1 ? facts.workers.find((entry) => entry.name === only) : undefined;
    if (single) return workerOffline(single, pool, language, now, facts);
    if (offline.length === 0)
      return text(language, 'assistant.worker.allOnline', {
        list: facts.workers.map((entry) => entry.name).join(', '),
      });
    return text(language, 'assistant.worker.offlineList', { list: offline.join(', ') });
  }
  if (worker.online) return workerOnline(worker, language, now);
  return workerOffline(worker, pool, language, now, facts);
}

function workerOnline(worker: WorkerFact, language: Language, now: Date): string {
  const ago = worker.lastShareAt
    ? formatDuration(now.getTime() - worker.lastShareAt.getTime(), language)
    : '-';
  const rejects = worker.rejectedPercent.toFixed(1);
  return text(language, 'assistant.worker.online', {
    worker: worker.name,
    ago,
    hashrate: formatHashrate(worker.hashrate),
    rejects,
  });
}

function workerOffline(
  worker: WorkerFact,
  pool: PoolInfo,
  language: Language,
  now: Date,
  facts: Pick<MinerFacts, 'username' | 'timeZone'>,
): string {
  const port = portsOf(pool, algorithmOfCoin(worker.coin))[0];
  const url = port ? stratumUrl(pool, port) : pool.host;
  const user = `${facts.username}.${worker.name}`;
  const since = worker.lastShareAt
    ? text(language, 'assistant.worker.lastShare', {
        time: formatTime(worker.lastShareAt, facts.timeZone),
        ago: formatDuration(now.getTime() - worker.lastShareAt.getTime(), language),
      })
    : text(language, 'assistant.worker.noShare');
  const rejects =
    worker.rejectedPercent >= 10
      ? text(language, 'assistant.worker.rejects', { percent: worker.rejectedPercent.toFixed(1) })
      : '';
  return text(language, 'assistant.worker.offline', { worker: worker.name, since, rejects, url, user });
}

function coinsOf(facts: MinerFacts): CoinMoneyFact[] {
  if (facts.money.length > 0) return facts.money;
  const coins = [...new Set(facts.workers.map((worker) => worker.coin))];
  return coins.map((coin) => ({
    coin,
    balance: 0n,
    earnedToday: 0n,
    immature: 0n,
    lastPayoutRunAt: null,
    lastPaid: null,
  }));
}

export function payoutAnswer(facts: MinerFacts, pool: PoolInfo, language: Language, now: Date): string {
  const money = coinsOf(facts);
  if (money.length === 0) return noWorkers(language);
  if (!facts.payoutAddressSet) return noAddressAnswer(facts, money, pool, language);
  const intervalMs = pool.payoutIntervalHours * 3_600_000;
  return money
    .map((entry) => {
      const due = entry.lastPayoutRunAt ? new Date(entry.lastPayoutRunAt.getTime() + intervalMs) : now;
      const next =
        due.getTime() <= now.getTime()
          ? text(language, 'assistant.payout.due')
          : formatTime(due, facts.timeZone);
      // Each coin is paid at its own threshold (Settings → Wallet, one row per coin).
      const threshold = facts.payoutThresholds[entry.coin];
      const balance = formatCoinAmount(entry.balance, entry.coin);
      const limit = formatCoinAmount(threshold, entry.coin);
      const state =
        entry.balance >= threshold
          ? text(language, 'assistant.payout.reached', { balance, limit })
          : text(language, 'assistant.payout.below', {
              balance,
              limit,
              missing: formatCoinAmount(threshold - entry.balance, entry.coin),
            });
      const every = formatEvery(pool.payoutIntervalHours, language);
      return text(language, 'assistant.payout', { coin: entry.coin, next, every, state });
    })
    .join(' ');
}

export function earningsAnswer(facts: MinerFacts, pool: PoolInfo, language: Language): string {
  const money = coinsOf(facts);
  if (money.length === 0) return noWorkers(language);
  const earned = money
    .map((entry) => {
      const today = formatCoinAmount(entry.earnedToday, entry.coin);
      const balance = formatCoinAmount(entry.balance, entry.coin);
      const earned = text(language, 'assistant.earnings', { today, balance });
      if (entry.immature === 0n) return earned;
      const immature = formatCoinAmount(entry.immature, entry.coin);
      return `${earned} ${text(language, 'assistant.earnings.immature', { immature })}`;
    })
    .join(' ');
  return facts.payoutAddressSet ? earned : `${earned} ${noAddressAnswer(facts, money, pool, language)}`;
}

/** Said instead of "paid in the next run" while the miner has no payout address: what to set and where. */
function noAddressAnswer(
  facts: MinerFacts,
  money: CoinMoneyFact[],
  pool: PoolInfo,
  language: Language,
): string {
  return text(language, 'assistant.payout.noAddress', {
    balances: money.map((entry) => formatCoinAmount(entry.balance, entry.coin)).join(', '),
    settings: SETTINGS_WALLET_PATH,
    every: formatEvery(pool.payoutIntervalHours, language),
    limit: money.map((entry) => formatCoinAmount(facts.payoutThresholds[entry.coin], entry.coin)).join(', '),
  });
}
