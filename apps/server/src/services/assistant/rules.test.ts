import { PORT_TABLE } from '@manjam/contract';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/index.js';
import { ALGORITHM_TABLE, SEED_ALGORITHMS, type SeedAlgorithm } from './algorithms.js';
import { detectLanguage, findAlgorithms, prepare } from './matcher.js';
import { poolInfoFromConfig } from './pool-info.js';
import { FALLBACK, PROFITABILITY_LINKS, QUICK_REPLIES } from './replies.js';
import { answerWithRules, type RuleContext } from './rules.js';

/** The product contract's own keyword list: every one of them is mapped. */
const SEED_KEYWORDS: readonly (readonly [string, SeedAlgorithm])[] = [
  ['bitcoin', 'SHA-256'],
  ['btc', 'SHA-256'],
  ['sha256', 'SHA-256'],
  ['litecoin', 'Scrypt'],
  ['ltc', 'Scrypt'],
  ['doge', 'Scrypt-DOGE'],
  ['dogecoin', 'Scrypt-DOGE'],
  ['kadena', 'Blake2s'],
  ['kda', 'Blake2s'],
  ['kaspa', 'kHeavyHash'],
  ['kas', 'kHeavyHash'],
  ['ethereum classic', 'Etchash'],
  ['etc', 'Etchash'],
  ['zcash', 'Equihash'],
  ['zec', 'Equihash'],
  ['conflux', 'Octopus'],
  ['cfx', 'Octopus'],
  ['filecoin', 'Filecoin'],
  ['fil', 'Filecoin'],
  ['ckb', 'Eaglesong'],
  ['nervos', 'Eaglesong'],
  ['quai', 'ProgPow'],
  ['ravencoin', 'KawPow'],
  ['rvn', 'KawPow'],
  ['monero', 'RandomX'],
  ['xmr', 'RandomX'],
  ['alephium', 'Blake3'],
  ['alph', 'Blake3'],
  ['ergo', 'Autolykos-v2'],
  ['erg', 'Autolykos-v2'],
  ['flux', 'Equihash-125,4'],
  ['dynex', 'DynexSolve'],
  ['dnx', 'DynexSolve'],
  ['ironfish', 'FishHash'],
  ['iron', 'FishHash'],
  ['cortex', 'Cuckaroo30'],
  ['ctxc', 'Cuckaroo30'],
];

const config = parseConfig({ publicHost: 'pool.manjam.example' });
const pool = poolInfoFromConfig(config);
const visitor: RuleContext = { pool, facts: null, now: new Date('2026-11-22T06:00:00Z') };
// The content checks below read answers without their bidi isolates (U+2068/U+2069); the isolation
// itself is checked word for word in bidi.test.ts.
const plain = (text: string): string => text.replace(/[\u2068\u2069]/g, '');
const ask = (message: string) => plain(answerWithRules(message, visitor));
const algorithmsIn = (message: string) => findAlgorithms(prepare(message));

describe("assistant keyword mapping (the product contract's keyword list)", () => {
  it.each(SEED_KEYWORDS)('maps the English keyword "%s" to %s, in any letter case', (keyword, algorithm) => {
    expect(algorithmsIn(`how do I mine ${keyword}?`)).toEqual([algorithm]);
    expect(algorithmsIn(`HOW DO I MINE ${keyword.toUpperCase()}`)).toEqual([algorithm]);
    expect(ask(`tell me about ${keyword}`)).toContain(algorithm);
  });

  const arabic = ALGORITHM_TABLE.flatMap((entry) =>
    entry.ar.map((keyword) => [keyword.words.join(' '), entry.name] as const),
  );
  it.each(arabic)('maps the Arabic name "%s" to %s, with or without the article', (name, algorithm) => {
    expect(algorithmsIn(`كيف أعدن ${name}؟`)).toEqual([algorithm]);
    expect(algorithmsIn(`أريد تعدين ال${name}`)).toEqual([algorithm]);
    const reply = ask(`أخبرني عن ${name}`);
    expect(reply).toContain(algorithm);
    expect(detectLanguage(reply)).toBe('ar');
  });

  it('covers every algorithm of the seed port table with English and Arabic keywords', () => {
    for (const name of SEED_ALGORITHMS) {
      const entry = ALGORITHM_TABLE.find((row) => row.name === name);
      expect(entry?.en.length).toBeGreaterThan(0);
      expect(entry?.ar.length).toBeGreaterThan(0);
    }
    expect(new Set(SEED_KEYWORDS.map(([, name]) => name)).size).toBe(SEED_ALGORITHMS.length);
  });

  it('reads Arabic spelled with hamza, diacritics or tatweel the same way', () => {
    expect(algorithmsIn('إيثريوم كلاسيك')).toEqual(['Etchash']);
    expect(algorithmsIn('البِيتْكُويْن')).toEqual(['SHA-256']);
    expect(algorithmsIn('كاســبا')).toEqual(['kHeavyHash']);
  });
});

describe('assistant substring traps', () => {
  it.each([
    ['fetch the sketch', 'etc'],
    ['update my profile', 'fil'],
    ['my environment is hot', 'iron'],
    ['energy prices are high', 'erg'],
    ['an ergonomic chair', 'ergo'],
    ['my android phone', 'roi'],
    ['the alphabet', 'alph'],
    ['a quaint shop', 'quai'],
    ['influx of miners', 'flux'],
    ['a kasbah in the desert', 'kas'],
    ['GPUs, ASICs, etc.', 'etc'],
  ])('finds no coin in "%s" (the %s trap)', (message) => {
    expect(algorithmsIn(message)).toEqual([]);
  });

  it('does not read "conflux" as Flux', () => {
    expect(algorithmsIn('conflux')).toEqual(['Octopus']);
  });

  it('reads "ETC" and "etc" without a period as Ethereum Classic', () => {
    expect(algorithmsIn('mine ETC.')).toEqual(['Etchash']);
    expect(algorithmsIn('port for etc')).toEqual(['Etchash']);
  });

  it('does not take the Arabic "مزدوج" (double) for Dogecoin nor "أرجو" (please) for Ergo', () => {
    expect(algorithmsIn('أرجو المساعدة في جهاز مزدوج')).toEqual([]);
  });

  it('accepts plurals and longer forms of coin names', () => {
    expect(algorithmsIn('bitcoins and litecoins')).toEqual(['SHA-256', 'Scrypt']);
    expect(algorithmsIn('sha256d')).toEqual(['SHA-256']);
  });
});

describe('assistant answers', () => {
  it('gives the live Stratum URL for Litecoin from the configured host and port', () => {
    const reply = ask('litecoin');
    expect(reply).toContain('stratum+tcp://pool.manjam.example:4444 (live)');
    expect(reply).toContain('ASIC setup');
    expect(reply).toContain('Password x');
  });

  it('marks a seed port that Manjam does not run yet as not live, and names the live ones (Kaspa among them)', () => {
    const reply = ask('kadena');
    expect(reply).toContain('port 6666 (not live yet');
    expect(reply).toContain('SHA-256 stratum+tcp://pool.manjam.example:3333');
    expect(reply).toContain('kHeavyHash stratum+tcp://pool.manjam.example:7777');
    expect(reply).toContain('Fee 1.0%');
  });

  it('gives live Kaspa its port, its 0.9% fee and how a KS ASIC, lolMiner and BzMiner connect', () => {
    const reply = ask('kaspa');
    expect(reply).toContain('Kaspa (KAS) uses kHeavyHash: stratum+tcp://pool.manjam.example:7777 (live)');
    expect(reply).not.toContain('not live');
    expect(reply).toContain('Fee 0.9%');
    expect(reply).toContain('IceRiver KS0 to KS7, Bitmain Antminer KS3 or KS5');
    expect(reply).toContain(
      'Worker account.worker1 (or your Kaspa address: kaspa:<address>.worker1), Password x',
    );
    expect(reply).toContain('lolMiner --algo KASPA --pool pool.manjam.example:7777 --user account.worker1');
    expect(reply).toContain('bzminer -a kaspa -w account.worker1 -p stratum+tcp://pool.manjam.example:7777');
    expect(reply).toContain('/mining/kaspa');
  });

  it('tells a Kaspa GPU miner in Arabic the live port and the lolMiner and BzMiner lines', () => {
    const reply = ask('كيف أعدن كاسبا بكرت الشاشة');
    expect(detectLanguage(reply)).toBe('ar');
    expect(reply).toContain('stratum+tcp://pool.manjam.example:7777 (يعمل الآن)');
    expect(reply).toContain('إعداد كاسبا');
    expect(reply).toContain(
      'lolMiner --algo KASPA --pool pool.manjam.example:7777 --user اسم_الحساب.worker1',
    );
    expect(reply).toContain(
      'bzminer -a kaspa -w اسم_الحساب.worker1 -p stratum+tcp://pool.manjam.example:7777',
    );
  });

  it('tells a CPU owner plainly that a CPU mines Kaspa at kH/s to MH/s, far below a GPU or ASIC', () => {
    const reply = ask('can I mine kaspa on my cpu?');
    expect(reply).toContain('A CPU mines Kaspa at only a few kH/s to a few MH/s');
    expect(reply).not.toContain('XMRig');
    expect(ask('هل أعدن كاسبا بالمعالج')).toContain('المعالج (CPU) يعدّن كاسبا ببضعة kH/s');
  });

  it('gives each algorithm the payout interval of its port: a live one the configured interval (Kaspa too), a not-live one the published', () => {
    const kaspa = PORT_TABLE.find((row) => row.name === 'kHeavyHash');
    // The seed published 12 h for Kaspa; live, it is paid by the pool's own runs like every coin.
    expect(kaspa?.published?.payoutHours).toBe(12);
    const every = `payouts every ${config.accounting.payoutIntervalHours} h`;
    expect(ask('kaspa')).toContain(every);
    expect(ask('bitcoin')).toContain(every);
    const hourly = poolInfoFromConfig(
      parseConfig({ publicHost: 'h.example', accounting: { payoutIntervalHours: 6 } }),
    );
    expect(answerWithRules('bitcoin', { ...visitor, pool: hourly })).toContain('payouts every 6 h');
    expect(answerWithRules('kaspa', { ...visitor, pool: hourly })).toContain('payouts every 6 h');
    expect(answerWithRules('kadena', { ...visitor, pool: hourly })).toContain('payouts every 24 h');
  });

  it('uses the configured port, not the seed table, when they differ', () => {
    const moved = poolInfoFromConfig(
      parseConfig({
        publicHost: 'h.example',
        stratum: { ports: [{ port: 13333, coin: 'BTC', vardiff: { start: 1, min: 1, max: 10 } }] },
      }),
    );
    const reply = answerWithRules('bitcoin port?', { ...visitor, pool: moved });
    expect(reply).toBe('Bitcoin (BTC) (SHA-256) port: stratum+tcp://h.example:13333 (live).');
  });

  it('names each port with its own payout scheme when the ports differ, in both languages', () => {
    const vardiff = { start: 1, min: 1, max: 10 };
    const mixed = poolInfoFromConfig(
      parseConfig({
        publicHost: 'h.example',
        stratum: {
          ports: [
            { port: 3333, coin: 'BTC', scheme: 'pps-plus', vardiff },
            { port: 3334, coin: 'BTC', scheme: 'pplns', vardiff },
            { port: 4444, coin: 'LTC', scheme: 'solo', vardiff },
          ],
        },
      }),
    );
    expect(answerWithRules('what is manjam?', { ...visitor, pool: mixed })).toContain(
      'Payout scheme PPS+ (3333), PPLNS (3334), SOLO (4444)',
    );
    expect(plain(answerWithRules('ما هو منجم؟', { ...visitor, pool: mixed }))).toContain(
      'نظام الدفع PPS+ (3333), PPLNS (3334), SOLO (4444)',
    );
    expect(answerWithRules('what is manjam?', visitor)).toContain('Payout scheme PPS+,');
  });

  it('gives GPU setup with pool URL, wallet address as username and password x', () => {
    const reply = ask('how do I set up my GPU for ravencoin');
    expect(reply).toContain('GPU setup');
    expect(reply).toContain('username to your wallet address');
    expect(reply).toContain('password to x');
    expect(reply).toContain('port 1140 (not live yet');
    expect(reply).toContain('GPU setup (once the port is live)');
  });

  it('gives ASIC setup with URL, worker name, wallet address and password x in Arabic', () => {
    const reply = ask('كيف أضبط جهاز أنت ماينر للبيتكوين');
    expect(reply).toContain('إعداد ASIC');
    expect(reply).toContain('stratum+tcp://pool.manjam.example:3333');
    expect(reply).toContain('عنوان محفظتك');
    expect(reply).toContain('كلمة المرور x');
  });

  it.each(['what is the roi of an s19', 'is mining profitable', 'كم الربحية؟'])(
    'adds three profitability sites and the calculator for "%s"',
    (message) => {
      const reply = ask(message);
      for (const link of PROFITABILITY_LINKS) expect(reply).toContain(link);
      expect(reply).toContain('/mining/calculator');
    },
  );

  it('answers every quick reply in both languages without the fallback', () => {
    for (const quick of QUICK_REPLIES) {
      expect(ask(quick.en)).not.toBe(FALLBACK.en);
      const arabic = ask(quick.ar);
      expect(arabic).not.toBe(FALLBACK.ar);
      expect(detectLanguage(arabic)).toBe('ar');
    }
  });

  it('answers "How to start mining?" with the five steps and the live pool URL', () => {
    const reply = ask('How to start mining?');
    expect(reply).toContain('1) create an account');
    expect(reply).toContain('stratum+tcp://pool.manjam.example:3333');
  });

  it('falls back to the seed message in English and in Arabic', () => {
    expect(ask('what is the weather like')).toBe(
      'I couldn’t determine your exact question. Can you specify a coin or miner type?',
    );
    expect(ask('ما حالة الطقس')).toBe(
      'لم أتمكن من تحديد سؤالك بالضبط. هل يمكنك تحديد عملة أو نوع جهاز التعدين؟',
    );
  });

  it('answers in the UI language when the message has no letters', () => {
    expect(answerWithRules('???', { ...visitor, uiLanguage: 'ar' })).toBe(FALLBACK.ar);
    expect(answerWithRules('???', { ...visitor, uiLanguage: 'en' })).toBe(FALLBACK.en);
  });

  it('asks a visitor to sign in for personal questions', () => {
    expect(ask('what is my hashrate')).toBe('Sign in and I can answer from your real workers and balance.');
    expect(ask('متى الدفعة القادمة')).toContain('سجّل الدخول');
  });
});
