import { algorithmInfo, type SeedAlgorithm } from './algorithms.js';
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
import {
  aboutAnswer,
  algorithmAnswer,
  FALLBACK,
  hardwareAnswer,
  portAnswer,
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
  port: keywords('port', 'منفذ', 'بورت'),
  gpu: keywords(
    'gpu',
    'graphics card',
    'video card',
    'word:cpu',
    'processor',
    'كرت',
    'كروت',
    'بطاقه رسوميات',
    'معالج',
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
  ),
  about: keywords('about', 'word:pool', 'manjam', 'word:fee', 'word:fees', 'مجمع', 'منجم', 'رسوم'),
} as const;

/** Reply language: Arabic letters -> ar; other letters -> en; no letters -> the UI language. */
export function replyLanguage(message: string, uiLanguage: Language = 'en'): Language {
  if (detectLanguage(message) === 'ar') return 'ar';
  return /\p{L}/u.test(message) ? 'en' : uiLanguage;
}

export function answerWithRules(message: string, context: RuleContext): string {
  const language = replyLanguage(message, context.uiLanguage);
  const prepared = prepare(message);
  const live = liveAnswer(prepared, context, language);
  if (live) return live;
  const parts = [...algorithmParts(prepared, context, language), ...topicParts(prepared, context, language)];
  return parts.length > 0 ? parts.join('\n\n') : FALLBACK[language];
}

function liveAnswer(prepared: Prepared, context: RuleContext, language: Language): string | undefined {
  const { facts } = context;
  const asks = (intent: keyof typeof INTENTS) => hasKeyword(prepared, INTENTS[intent]);
  // A worker's name alone routes to the worker answer only when it cannot be an ordinary word
  // ("rig1", "s19-a"); "is default online" or "worker default" need the word "worker"/"rig".
  const named = facts ? namedWorker(facts, prepared) : undefined;
  const namesWorker = named !== undefined && (/[\d_.-]/.test(named.name) || asks('mention'));
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
  return earningsAnswer(facts, language);
}

function algorithmParts(prepared: Prepared, context: RuleContext, language: Language): string[] {
  const algorithms = findAlgorithms(prepared).slice(0, 3);
  const asks = (intent: keyof typeof INTENTS) => hasKeyword(prepared, INTENTS[intent]);
  if (algorithms.length > 0 && asks('port'))
    return algorithms.map((name) => portAnswer(context.pool, name, language));
  const parts = algorithms.map((name) => algorithmAnswer(context.pool, name, language));
  const first: SeedAlgorithm | undefined = algorithms[0];
  const account = context.facts?.username;
  const kind = asks('asic') ? 'asic' : asks('gpu') ? 'gpu' : first ? setupKindOf(first) : undefined;
  if (kind && (first || asks('asic') || asks('gpu')))
    parts.push(setupAnswer(context.pool, kind, language, first, account));
  return parts;
}

function setupKindOf(algorithm: SeedAlgorithm): 'gpu' | 'asic' {
  return algorithmInfo(algorithm).hardware === 'asic' ? 'asic' : 'gpu';
}

function topicParts(prepared: Prepared, context: RuleContext, language: Language): string[] {
  const asks = (intent: keyof typeof INTENTS) => hasKeyword(prepared, INTENTS[intent]);
  const parts: string[] = [];
  const hasAlgorithm = findAlgorithms(prepared).length > 0;
  const hasSetup = asks('asic') || asks('gpu');
  if (asks('profit')) parts.push(profitAnswer(language));
  if (hasAlgorithm || hasSetup) return parts;
  if (asks('start')) parts.push(startAnswer(context.pool, language, context.facts?.username));
  else if (asks('hardware')) parts.push(hardwareAnswer(context.pool, language));
  else if (asks('about') && parts.length === 0) parts.push(aboutAnswer(context.pool, language));
  return parts;
}
