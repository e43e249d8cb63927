import { ALGORITHM_TABLE, algorithmInfo, type Hardware, type SeedAlgorithm } from './algorithms.js';
import { isolateLtr } from './bidi.js';
import { findDevice, type Device } from './devices.js';
import { estimateAnswer, estimateCoin, hashrateFigure, type CoinNetworkFact } from './estimate.js';
import type { MinerFacts } from './facts.js';
import { earningsAnswer, hashrateAnswer, namedWorker, payoutAnswer, workerAnswer } from './live.js';
import {
  detectLanguage,
  findAlgorithms,
  hasKeyword,
  keywords,
  prepare,
  type Language,
  type Prepared,
} from './matcher.js';
import type { PoolInfo } from './pool-info.js';
import { text } from '../../i18n/index.js';
import {
  aboutAnswer,
  algorithmAnswer,
  FALLBACK,
  hardwareAnswer,
  portAnswer,
  powerAnswer,
  profitAnswer,
  setupAnswer,
  signInAnswer,
  startAnswer,
} from './replies.js';

// The rule engine: pure, no I/O. A message -> one reply, from the seed's keyword mapping, the
// pool's real configuration and (for a signed-in miner) their live facts.

export interface RuleContext {
  pool: PoolInfo;
  /** The signed-in miner's facts; null for a visitor. */
  facts: MinerFacts | null;
  now: Date;
  /** The UI language, used only when the message has no letters to tell by. */
  uiLanguage?: Language;
  /** The pool's live network figures, loaded when the message names a hashrate (earnings estimates). */
  network?: readonly CoinNetworkFact[];
}

const INTENTS = {
  mention: keywords('worker', 'word:rig', 'word:rigs', 'word:miner', 'عامل', 'عمال', 'جهاز'),
  worker: keywords(
    'offline',
    'word:down',
    'not working',
    'stopped',
    'word:status',
    'disconnect',
    'غير متصل',
    'متوقف',
    'اوفلاين',
    'لا يعمل',
    'توقف',
    'منقطع',
    'انقطع',
  ),
  hashrate: keywords('hashrate', 'hash rate', 'hashing', 'word:هاش', 'معدل الهاش', 'معدل التجزيه', 'هاشريت'),
  // "why does my rig read low": with a hashrate or a rig named, the 10-minute window is explained.
  low: keywords('word:low', 'lower', 'slow', 'less than', 'منخفض', 'قليل', 'اقل', 'ضعيف', 'بطي'),
  payout: keywords(
    'payout',
    'word:paid',
    'payment',
    'withdraw',
    'threshold',
    'word:دفع',
    'دفعه',
    'الدفعه',
    'السحب',
    'الحد الادني',
    'تحويل',
  ),
  earnings: keywords('earn', 'income', 'word:balance', 'revenue', 'ربحت', 'كسبت', 'ارباحي', 'دخلي', 'رصيد'),
  // With a hashrate figure in the message: "earnings with 100 TH/s", "كم أربح بـ 100 TH/s".
  estimate: keywords(
    'earn',
    'income',
    'revenue',
    'profit',
    'word:make',
    'how much',
    'estimate',
    'ربح',
    'اربح',
    'ارباح',
    'كسب',
    'اكسب',
    'دخل',
    'عائد',
    'تقدير',
    'word:كم',
  ),
  port: keywords('port', 'منفذ', 'بورت'),
  gpu: keywords('gpu', 'graphics card', 'video card', 'كرت', 'كروت', 'بطاقه رسوميات'),
  cpu: keywords('word:cpu', 'word:cpus', 'processor', 'xmrig', 'معالج', 'المعالج'),
  power: keywords(
    'electricity',
    'electric',
    'word:power',
    'watt',
    'word:kwh',
    'word:energy',
    'كهرباء',
    'كهربا',
    'استهلاك',
    'واط',
    'طاقه',
    'كيلوواط',
  ),
  asic: keywords('asic', 'antminer', 'whatsminer', 'avalon', 'bitmain', 'اسيك', 'انت ماينر'),
  profit: keywords('word:roi', 'profit', 'ربحيه', 'مربح', 'العائد', 'عائد الاستثمار'),
  hardware: keywords('hardware', 'equipment', 'word:rig', 'اجهزه', 'معدات', 'جهاز'),
  start: keywords(
    'start',
    'begin',
    'how to mine',
    'get started',
    'set up',
    'setup',
    'configure',
    'ابدا',
    'البدء',
    'بدء',
    'كيف اعدن',
    'اعداد',
    'ضبط',
    'اضبط',
    'تشغيل',
  ),
  about: keywords('about', 'word:pool', 'manjam', 'word:fee', 'word:fees', 'مجمع', 'منجم', 'رسوم'),
} as const;

/** Reply language: Arabic letters -> ar; other letters -> en; no letters -> the UI language. */
export function replyLanguage(message: string, uiLanguage: Language = 'en'): Language {
  if (detectLanguage(message) === 'ar') return 'ar';
  return /\p{L}/u.test(message) ? 'en' : uiLanguage;
}

/**
 * One reply. Arabic replies have every left-to-right run (units, hashes, addresses, algorithm
 * names) bidi-isolated (bidi.ts): "SHA-256" is never split into "-SHA / 256".
 */
export function answerWithRules(message: string, context: RuleContext): string {
  const reply = draftAnswer(message, context);
  return replyLanguage(message, context.uiLanguage) === 'ar' ? isolateLtr(reply) : reply;
}

function draftAnswer(message: string, context: RuleContext): string {
  const language = replyLanguage(message, context.uiLanguage);
  const prepared = prepare(message);
  const device = findDevice(prepared);
  // Intent first: an electricity question is answered with power and cost, never with earnings,
  // even when a worker happens to carry the device's name ("s19").
  if (hasKeyword(prepared, INTENTS.power)) return powerAnswer(device, language);
  // A named hashrate asks for an estimate for that hashrate, never for the asker's own credits.
  const figure = hashrateFigure(message);
  if (figure && hasKeyword(prepared, INTENTS.estimate))
    return estimateAnswer(
      figure,
      estimateCoin(prepared, figure, context.pool),
      context.network ?? [],
      language,
    );
  const live = liveAnswer(prepared, context, language, device);
  if (live) return live;
  const parts = [
    ...algorithmParts(prepared, context, language, device),
    ...topicParts(prepared, context, language, device),
  ];
  return parts.length > 0 ? parts.join('\n\n') : FALLBACK[language];
}

function liveAnswer(
  prepared: Prepared,
  context: RuleContext,
  language: Language,
  device: Device | undefined,
): string | undefined {
  const { facts } = context;
  const asks = (intent: keyof typeof INTENTS) => hasKeyword(prepared, INTENTS[intent]);
  if (asks('low') && (asks('hashrate') || asks('mention'))) {
    const why = text(language, 'assistant.hashrate.window');
    return facts ? `${why}\n\n${hashrateAnswer(facts, language)}` : why;
  }
  // A worker's name alone routes to the worker answer only when it cannot be an ordinary word
  // ("rig1", "s19-a"); "is default online" or "worker default" need the word "worker"/"rig".
  // A setup question about a device model ("how do I set up my S19") is about the model.
  const named = facts ? namedWorker(facts, prepared) : undefined;
  const setupQuestion = device !== undefined && (asks('start') || asks('profit'));
  const namesWorker =
    named !== undefined && !setupQuestion && (/[\d_.-]/.test(named.name) || asks('mention'));
  const wanted =
    asks('worker') || namesWorker
      ? 'worker'
      : asks('hashrate')
        ? 'hashrate'
        : asks('payout')
          ? 'payout'
          : asks('earnings')
            ? 'earnings'
            : undefined;
  if (!wanted) return undefined;
  if (!facts) return signInAnswer(language);
  if (wanted === 'worker') return workerAnswer(facts, context.pool, language, context.now, prepared);
  if (wanted === 'hashrate') return hashrateAnswer(facts, language);
  if (wanted === 'payout') return payoutAnswer(facts, context.pool, language, context.now);
  return earningsAnswer(facts, context.pool, language);
}

/**
 * Setup by device or algorithm: a named algorithm, else the named device's ("S19" -> SHA-256), else
 * the CPU algorithm of PORT_TABLE for a CPU question (RandomX), each with the port the table gives.
 */
function algorithmParts(
  prepared: Prepared,
  context: RuleContext,
  language: Language,
  device: Device | undefined,
): string[] {
  const algorithms = findAlgorithms(prepared).slice(0, 3);
  const asks = (intent: keyof typeof INTENTS) => hasKeyword(prepared, INTENTS[intent]);
  if (algorithms.length > 0 && asks('port'))
    return algorithms.map((name) => portAnswer(context.pool, name, language));
  const cpu = asks('cpu');
  const chosen: SeedAlgorithm | undefined =
    algorithms[0] ?? device?.algorithm ?? (cpu ? cpuAlgorithm() : undefined);
  if (algorithms.length === 0 && chosen && (device || cpu)) algorithms.push(chosen);
  const parts = algorithms.map((name) => algorithmAnswer(context.pool, name, language));
  const account = context.facts?.username;
  const kind: Hardware | undefined =
    asks('asic') || device
      ? 'asic'
      : cpu
        ? 'cpu'
        : asks('gpu')
          ? 'gpu'
          : chosen
            ? algorithmInfo(chosen).hardware
            : undefined;
  if (kind && (chosen || asks('asic') || asks('gpu')))
    parts.push(setupAnswer(context.pool, kind, language, chosen, account));
  return parts;
}

/** The algorithm PORT_TABLE gives to CPUs (RandomX). */
function cpuAlgorithm(): SeedAlgorithm | undefined {
  return ALGORITHM_TABLE.find((entry) => entry.hardware === 'cpu')?.name;
}

function topicParts(
  prepared: Prepared,
  context: RuleContext,
  language: Language,
  device: Device | undefined,
): string[] {
  const asks = (intent: keyof typeof INTENTS) => hasKeyword(prepared, INTENTS[intent]);
  const parts: string[] = [];
  const hasAlgorithm = findAlgorithms(prepared).length > 0 || device !== undefined;
  const hasSetup = asks('asic') || asks('gpu') || asks('cpu');
  if (asks('profit')) parts.push(profitAnswer(language));
  if (hasAlgorithm || hasSetup) return parts;
  if (asks('start')) parts.push(startAnswer(context.pool, language, context.facts?.username));
  else if (asks('hardware')) parts.push(hardwareAnswer(context.pool, language));
  else if (asks('about') && parts.length === 0) parts.push(aboutAnswer(context.pool, language));
  return parts;
}
