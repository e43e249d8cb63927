import type { CoinMoneyFact, MinerFacts, WorkerFact } from './facts.js';
import { formatCoinAmount, parseCoinAmount } from '@manjam/protocol';
import { formatDuration, formatHashrate, formatTime } from '../shared/format.js';
import type { Language, Prepared } from './matcher.js';
import { algorithmOfCoin, portsOf, stratumUrl, type PoolInfo } from './pool-info.js';

// Answers from the signed-in miner's live facts. Every figure comes from `facts`; nothing is made up.

export function hashrateAnswer(facts: MinerFacts, language: Language): string {
  if (facts.workers.length === 0) return noWorkers(language);
  const coins = [...new Set(facts.workers.map((worker) => worker.coin))];
  const parts = coins.map((coin) => {
    const workers = facts.workers.filter((worker) => worker.coin === coin);
    const online = workers.filter((worker) => worker.online).length;
    const now = formatHashrate(workers.reduce((sum, worker) => sum + worker.hashrate, 0));
    const day = formatHashrate(workers.reduce((sum, worker) => sum + worker.hashrate24h, 0));
    const algorithm = algorithmOfCoin(coin);
    return language === 'ar'
      ? `${coin} (${algorithm}): ${now} خلال آخر 10 دقائق، ومتوسط 24 ساعة ${day}؛ ${online} من ${workers.length} عامل متصل`
      : `${coin} (${algorithm}): ${now} over the last 10 minutes, 24 h average ${day}; ${online} of ${workers.length} workers online`;
  });
  return language === 'ar' ? `معدل الهاش لديك — ${parts.join(' | ')}.` : `Your hashrate — ${parts.join(' | ')}.`;
}

function noWorkers(language: Language): string {
  return language === 'ar'
    ? 'لا يوجد لديك عمال بعد. وجّه جهازك إلى المجمع باسم مستخدم بالصيغة account.worker وسيظهر العامل عند أول حصة مقبولة.'
    : 'You have no workers yet. Point a miner at the pool with a username like account.worker and it appears with its first accepted share.';
}

/** The worker the message names (whole word, case-insensitive), if any. */
export function namedWorker(facts: MinerFacts, prepared: Prepared): WorkerFact | undefined {
  const words = new Set(prepared.words);
  const raw = prepared.raw.toLowerCase();
  return facts.workers.find((worker) => {
    const name = worker.name.toLowerCase();
    return words.has(name) || new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(name)}($|[^\\p{L}\\p{N}])`, 'u').test(raw);
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A name after "worker"/"rig"/"العامل" that matches none of the miner's workers. */
export function askedWorkerName(prepared: Prepared): string | undefined {
  const match = /(?:worker|rig|العامل|عامل|الجهاز)\s+["'«]?([\p{L}\p{N}_.-]{1,64})/iu.exec(prepared.raw);
  return match?.[1];
}

export function workerAnswer(facts: MinerFacts, pool: PoolInfo, language: Language, now: Date, prepared: Prepared): string {
  const worker = namedWorker(facts, prepared);
  if (!worker) {
    const asked = askedWorkerName(prepared);
    const offline = facts.workers.filter((entry) => !entry.online).map((entry) => entry.name);
    if (asked) {
      const known = facts.workers.map((entry) => entry.name).join(', ') || '-';
      return language === 'ar'
        ? `لم أجد عاملاً باسم ${asked}. عمالك: ${known}.`
        : `I can't find a worker named ${asked}. Your workers: ${known}.`;
    }
    if (facts.workers.length === 0) return noWorkers(language);
    return language === 'ar'
      ? `العمال غير المتصلين: ${offline.join(', ') || 'لا يوجد'}. اذكر اسم العامل لأشرح السبب.`
      : `Offline workers: ${offline.join(', ') || 'none'}. Name a worker and I'll look into it.`;
  }
  if (worker.online) return workerOnline(worker, language, now);
  return workerOffline(worker, pool, language, now, facts.username);
}

function workerOnline(worker: WorkerFact, language: Language, now: Date): string {
  const ago = worker.lastShareAt ? formatDuration(now.getTime() - worker.lastShareAt.getTime(), language) : '-';
  const rejects = worker.rejectedPercent.toFixed(1);
  return language === 'ar'
    ? `العامل ${worker.name} متصل: آخر حصة مقبولة قبل ${ago}، معدل الهاش ${formatHashrate(worker.hashrate)}، والمرفوض ${rejects}% خلال الساعة الأخيرة.`
    : `Worker ${worker.name} is online: last accepted share ${ago} ago, hashrate ${formatHashrate(worker.hashrate)}, ${rejects}% rejected in the last hour.`;
}

function workerOffline(worker: WorkerFact, pool: PoolInfo, language: Language, now: Date, username: string): string {
  const port = portsOf(pool, algorithmOfCoin(worker.coin))[0];
  const url = port ? stratumUrl(pool, port) : pool.host;
  const user = `${username}.${worker.name}`;
  const since = worker.lastShareAt
    ? language === 'ar'
      ? `آخر حصة مقبولة منه كانت ${formatTime(worker.lastShareAt)} (قبل ${formatDuration(now.getTime() - worker.lastShareAt.getTime(), language)})`
      : `its last accepted share was at ${formatTime(worker.lastShareAt)} (${formatDuration(now.getTime() - worker.lastShareAt.getTime(), language)} ago)`
    : language === 'ar'
      ? 'لم يرسل أي حصة مقبولة بعد'
      : 'it has not sent an accepted share yet';
  const rejects = worker.rejectedPercent >= 10
    ? language === 'ar'
      ? ` ونسبة المرفوض ${worker.rejectedPercent.toFixed(1)}% قبل انقطاعه، فتحقق من الخوارزمية والمنفذ.`
      : ` Before it stopped, ${worker.rejectedPercent.toFixed(1)}% of its shares were rejected: check the algorithm and port.`
    : '';
  return language === 'ar'
    ? `العامل ${worker.name} غير متصل: ${since}.${rejects} تحقق من الكهرباء والإنترنت، ومن أن الجهاز يستخدم ${url} باسم المستخدم ${user} وكلمة المرور x، ثم راجع سجل برنامج التعدين.`
    : `Worker ${worker.name} is offline: ${since}.${rejects} Check its power and network, that it points at ${url} with username ${user} and password x, then read the miner's log.`;
}

function coinsOf(facts: MinerFacts): CoinMoneyFact[] {
  if (facts.money.length > 0) return facts.money;
  const coins = [...new Set(facts.workers.map((worker) => worker.coin))];
  return coins.map((coin) => ({ coin, balance: 0n, earnedToday: 0n, lastPayoutRunAt: null, lastPaid: null }));
}

export function payoutAnswer(facts: MinerFacts, pool: PoolInfo, language: Language, now: Date): string {
  const money = coinsOf(facts);
  if (money.length === 0) return noWorkers(language);
  const threshold = parseCoinAmount(facts.payoutThreshold);
  const intervalMs = pool.payoutIntervalHours * 3_600_000;
  return money
    .map((entry) => {
      const due = entry.lastPayoutRunAt ? new Date(entry.lastPayoutRunAt.getTime() + intervalMs) : now;
      const next = due.getTime() <= now.getTime() ? (language === 'ar' ? 'الآن (الجولة مستحقة)' : 'now (the run is due)') : formatTime(due);
      const balance = formatCoinAmount(entry.balance, entry.coin);
      const limit = formatCoinAmount(threshold, entry.coin);
      const state = entry.balance >= threshold
        ? language === 'ar'
          ? `رصيدك ${balance} بلغ حدّك ${limit}، فسيُدفع في الجولة القادمة`
          : `your balance ${balance} has reached your threshold ${limit}, so it is paid in the next run`
        : language === 'ar'
          ? `رصيدك ${balance} أقل من حدّك ${limit}؛ تحتاج ${formatCoinAmount(threshold - entry.balance, entry.coin)} إضافية`
          : `your balance ${balance} is below your threshold ${limit}; you need ${formatCoinAmount(threshold - entry.balance, entry.coin)} more`;
      return language === 'ar'
        ? `${entry.coin}: جولة الدفع القادمة ${next} (كل ${pool.payoutIntervalHours} ساعة)؛ ${state}.`
        : `${entry.coin}: next payout run ${next} (every ${pool.payoutIntervalHours} h); ${state}.`;
    })
    .join(' ');
}

export function earningsAnswer(facts: MinerFacts, language: Language): string {
  const money = coinsOf(facts);
  if (money.length === 0) return noWorkers(language);
  return money
    .map((entry) => {
      const today = formatCoinAmount(entry.earnedToday, entry.coin);
      const balance = formatCoinAmount(entry.balance, entry.coin);
      return language === 'ar'
        ? `ربحت اليوم (منذ 00:00 UTC) ${today}، ورصيدك غير المدفوع ${balance}.`
        : `Today (since 00:00 UTC) you earned ${today}; your unpaid balance is ${balance}.`;
    })
    .join(' ');
}
