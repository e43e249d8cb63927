import { algorithmInfo, type Hardware, type SeedAlgorithm } from './algorithms.js';
import type { Language } from './matcher.js';
import { livePorts, portsOf, stratumUrl, type PoolInfo, type PoolPort } from './pool-info.js';

// The rule engine's fixed answers, in English and Arabic. Hosts, ports and fees come from the
// pool's configuration, never from constants.

export const FALLBACK: Record<Language, string> = {
  en: 'I couldn’t determine your exact question. Can you specify a coin or miner type?',
  ar: 'لم أتمكن من تحديد سؤالك بالضبط. هل يمكنك تحديد عملة أو نوع جهاز التعدين؟',
};

/** Three independent profitability calculators plus Manjam's own page. */
export const PROFITABILITY_LINKS = [
  'https://whattomine.com',
  'https://minerstat.com/mining-calculator',
  'https://www.hashrate.no',
] as const;
export const OWN_CALCULATOR_PATH = '/mining/calculator';

export const QUICK_REPLIES = [
  { id: 'bitcoin-mining', en: 'Bitcoin Mining', ar: 'تعدين البيتكوين' },
  { id: 'mining-hardware', en: 'Mining Hardware', ar: 'أجهزة التعدين' },
  { id: 'how-to-start', en: 'How to Start Mining', ar: 'كيف أبدأ التعدين' },
  { id: 'profitability', en: 'Profitability', ar: 'الربحية' },
  { id: 'about-pool', en: 'About the pool', ar: 'عن المجمع' },
] as const;

const HARDWARE_NAME: Record<Language, Record<Hardware, string>> = {
  en: { asic: 'ASIC miners', gpu: 'GPU rigs', cpu: 'CPUs' },
  ar: { asic: 'أجهزة ASIC', gpu: 'منصات كروت الشاشة (GPU)', cpu: 'المعالجات (CPU)' },
};

function feeText(pool: PoolInfo, algorithm: SeedAlgorithm, language: Language): string {
  const fee = pool.feeBasisPoints[algorithm];
  if (fee === undefined) return '';
  const percent = (fee / 100).toFixed(1);
  const hours = pool.payoutHours[algorithm] ?? pool.payoutIntervalHours;
  return language === 'ar'
    ? ` الرسوم ${percent}% والدفعات كل ${hours} ساعة.`
    : ` Fee ${percent}%, payouts every ${hours} h.`;
}

function liveList(pool: PoolInfo): string {
  return livePorts(pool).map((port) => `${port.algorithm} ${stratumUrl(pool, port)}`).join(', ');
}

function portLine(pool: PoolInfo, port: PoolPort, language: Language): string {
  if (port.live) return language === 'ar' ? `${stratumUrl(pool, port)} (يعمل الآن)` : `${stratumUrl(pool, port)} (live)`;
  return language === 'ar'
    ? `المنفذ ${port.port} (غير مفعّل بعد؛ المنافذ العاملة الآن: ${liveList(pool)})`
    : `port ${port.port} (not live yet; live now: ${liveList(pool)})`;
}

/** "Litecoin (LTC) uses Scrypt: stratum+tcp://host:4444 (live). Usually mined with ASIC miners." */
export function algorithmAnswer(pool: PoolInfo, algorithm: SeedAlgorithm, language: Language): string {
  const info = algorithmInfo(algorithm);
  const ports = portsOf(pool, algorithm).map((port) => portLine(pool, port, language)).join('; ');
  const hardware = HARDWARE_NAME[language][info.hardware];
  return language === 'ar'
    ? `${info.coins.ar} تستخدم خوارزمية ${algorithm}: ${ports}. تُعدَّن عادةً بواسطة ${hardware}.${feeText(pool, algorithm, language)}`
    : `${info.coins.en} uses ${algorithm}: ${ports}. Usually mined with ${hardware}.${feeText(pool, algorithm, language)}`;
}

/** The port for one algorithm, briefly ("which port for litecoin"). */
export function portAnswer(pool: PoolInfo, algorithm: SeedAlgorithm, language: Language): string {
  const info = algorithmInfo(algorithm);
  const ports = portsOf(pool, algorithm).map((port) => portLine(pool, port, language)).join('; ');
  return language === 'ar' ? `منفذ ${info.coins.ar} (${algorithm}): ${ports}.` : `${info.coins.en} (${algorithm}) port: ${ports}.`;
}

function setupPort(pool: PoolInfo, algorithm: SeedAlgorithm | undefined): PoolPort | undefined {
  if (algorithm) return portsOf(pool, algorithm)[0];
  return livePorts(pool)[0] ?? pool.ports[0];
}

/** GPU/CPU software setup or ASIC web-page setup, with the real URL; `account` personalises the example. */
export function setupAnswer(pool: PoolInfo, kind: 'gpu' | 'asic', language: Language, algorithm?: SeedAlgorithm, account?: string): string {
  const port = setupPort(pool, algorithm);
  const url = port ? stratumUrl(pool, port) : `stratum+tcp://${pool.host}:3333`;
  const user = account ? `${account}.worker1` : language === 'ar' ? 'اسم_الحساب.worker1' : 'account.worker1';
  const notLive = port && !port.live ? (language === 'ar' ? ' (عندما يُفعَّل المنفذ)' : ' (once the port is live)') : '';
  if (kind === 'gpu') {
    return language === 'ar'
      ? `إعداد GPU${notLive}: في برنامج التعدين ضع رابط المجمع ${url}، واسم المستخدم هو عنوان محفظتك (أو ${user})، وكلمة المرور x.`
      : `GPU setup${notLive}: in your mining software set the pool URL to ${url}, the username to your wallet address (or ${user}), and the password to x.`;
  }
  return language === 'ar'
    ? `إعداد ASIC${notLive}: افتح صفحة إعدادات الجهاز، وفي خانة المجمع ضع الرابط ${url}، واسم العامل ${user}، أو عنوان محفظتك متبوعاً بـ .worker1، وكلمة المرور x.`
    : `ASIC setup${notLive}: open the miner's web page and under Pools set URL ${url}, Worker ${user} (or your wallet address followed by .worker1), Password x.`;
}

export function profitAnswer(language: Language): string {
  const links = PROFITABILITY_LINKS.join(' , ');
  return language === 'ar'
    ? `لتقدير الربحية (العائد على الاستثمار) أدخل معدل الهاش واستهلاك الطاقة وسعر الكهرباء في: ${links} ، أو استخدم حاسبة منجم: ${OWN_CALCULATOR_PATH}`
    : `To estimate profitability (ROI), enter your hashrate, power draw and electricity price at: ${links} , or use Manjam's calculator: ${OWN_CALCULATOR_PATH}`;
}

export function hardwareAnswer(pool: PoolInfo, language: Language): string {
  return language === 'ar'
    ? `أجهزة ASIC مصممة لخوارزمية واحدة (مثل SHA-256 للبيتكوين وScrypt للايتكوين) وهي الأكفأ لها. كروت الشاشة (GPU) تناسب خوارزميات مثل KawPow وEtchash وAutolykos-v2، والمعالجات (CPU) تناسب RandomX (مونيرو). المنافذ العاملة في منجم الآن: ${liveList(pool)}.`
    : `ASIC miners are built for one algorithm (SHA-256 for Bitcoin, Scrypt for Litecoin) and are the most efficient for it. GPU rigs suit algorithms such as KawPow, Etchash and Autolykos-v2; CPUs suit RandomX (Monero). Live on Manjam now: ${liveList(pool)}.`;
}

export function startAnswer(pool: PoolInfo, language: Language, account?: string): string {
  const port = livePorts(pool)[0];
  const url = port ? stratumUrl(pool, port) : `stratum+tcp://${pool.host}:3333`;
  const user = account ? `${account}.worker1` : language === 'ar' ? 'اسم_الحساب.worker1' : 'username.worker1';
  return language === 'ar'
    ? `للبدء: 1) أنشئ حساباً. 2) اختر اسم عامل بالصيغة ${user}. 3) اضبط جهازك أو برنامج التعدين. 4) أدخل بيانات المجمع: ${url}، المستخدم ${user}، كلمة المرور x. 5) تابع العمال والأرباح من لوحة التحكم. المنافذ العاملة: ${liveList(pool)}.`
    : `To start: 1) create an account; 2) pick a worker name in the form ${user}; 3) configure your miner or mining software; 4) enter the pool details: ${url}, user ${user}, password x; 5) watch your workers and earnings on the dashboard. Live ports: ${liveList(pool)}.`;
}

function schemeName(scheme: string): string {
  return scheme === 'pps-plus' ? 'PPS+' : scheme.toUpperCase();
}

export function aboutAnswer(pool: PoolInfo, language: Language): string {
  const fees = livePorts(pool)
    .map((port) => `${port.algorithm} ${((pool.feeBasisPoints[port.algorithm] ?? 0) / 100).toFixed(1)}%`)
    .join(', ');
  return language === 'ar'
    ? `منجم مجمع تعدين لمنطقة الشرق الأوسط وشمال أفريقيا. الخوارزميات العاملة: ${liveList(pool)}. الرسوم: ${fees}. نظام الدفع ${schemeName(pool.defaultScheme)}، والدفعات كل ${pool.payoutIntervalHours} ساعة عند بلوغ الحد الأدنى الذي تختاره (0.001 أو 0.01 أو 0.1).`
    : `Manjam is a mining pool for the MENA region. Live algorithms: ${liveList(pool)}. Fees: ${fees}. Payout scheme ${schemeName(pool.defaultScheme)}, payouts every ${pool.payoutIntervalHours} h once your balance reaches the threshold you choose (0.001, 0.01 or 0.1).`;
}

export function signInAnswer(language: Language): string {
  return language === 'ar'
    ? 'سجّل الدخول لأجيبك من بيانات عمالك ورصيدك الفعلية.'
    : 'Sign in and I can answer from your real workers and balance.';
}
