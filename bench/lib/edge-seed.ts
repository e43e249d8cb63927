// The seed-and-claims faults of issue 27 (items 12 and 13) in figures, on this machine:
//  1. "earnings with 100 TH/s": the assistant's estimate (en and ar) beside the web calculator's
//     for the same inputs (one formula: the difference must be 0), and what a reply costs.
//  2. Bidi: Arabic answers to a set of miner questions; Latin runs found, runs left without an
//     isolate (must be 0), "SHA-256" occurrences and how many are isolated.
//  3. Auto Logout: a real API (PGlite) with a session idle 31 minutes: the status and code of the
//     first refused request and of the next one (session-idle, then unauthorized).
import { performance } from 'node:perf_hooks';
import { parseConfig } from '../../apps/server/src/config/index.js';
import { FSI, PDI } from '../../apps/server/src/services/assistant/bidi.js';
import type { CoinNetworkFact } from '../../apps/server/src/services/assistant/estimate.js';
import { poolInfoFromConfig } from '../../apps/server/src/services/assistant/pool-info.js';
import { answerWithRules } from '../../apps/server/src/services/assistant/rules.js';
import { openTestDatabase } from '../../apps/server/test/support/db.js';
import { startTestApi } from '../../apps/server/test/support/http.js';
import { estimateEarnings } from '../../apps/web/src/pages/mining/calculator.js';
import { Report, fixed, int } from './report.js';

const NETWORK: CoinNetworkFact[] = [
  // Mainnet-like figures in the pool's Stratum units: BTC 1e14 (2^32 hashes), LTC 2e7 x 65536 (2^16).
  { coin: 'BTC', difficulty: 1e14, blockReward: 312_500_000n, feePercent: 1 },
  { coin: 'LTC', difficulty: 20e6 * 65_536, blockReward: 625_000_000n, feePercent: 1 },
];
const ESTIMATES = [
  { en: 'earnings with 100 TH/s', ar: 'كم أربح بـ 100 TH/s؟', value: 100, unit: 'TH/s', coin: 'BTC' },
  {
    en: 'litecoin earnings with 500 GH/s',
    ar: 'كم أربح من لايتكوين بـ 500 GH/s؟',
    value: 500,
    unit: 'GH/s',
    coin: 'LTC',
  },
] as const;
const ARABIC_QUESTIONS = [
  'كيف أعدّن البيتكوين؟',
  'أي منفذ لللايتكوين؟',
  'كيف أعدّن مونيرو بالمعالج؟',
  'ما هو منجم؟',
  'كم أربح بـ 100 TH/s؟',
  'كم تكلفة الكهرباء لجهاز Antminer S19؟',
  'كاسبا بكرت الشاشة',
];

export async function runEdgeSeed(report: Report, argv: string[]): Promise<void> {
  const repeats = Number(argv.find((arg) => arg.startsWith('--replies='))?.slice(10) ?? 2000);
  const pool = poolInfoFromConfig(parseConfig({ publicHost: 'pool.manjam.example' }));
  const now = new Date();
  report.line(`edge-seed ${now.toISOString()}`);
  report.line('1. Earnings estimate for a named hashrate (assistant vs web calculator, one formula)');
  for (const row of ESTIMATES) {
    const fact = NETWORK.find((entry) => entry.coin === row.coin);
    if (!fact || fact.difficulty === null || fact.blockReward === null) continue;
    const web = estimateEarnings({
      hashrate: row.value,
      unit: row.unit,
      difficulty: fact.difficulty,
      hashesPerDifficulty: row.coin === 'BTC' ? 2 ** 32 : 2 ** 16,
      blockReward: Number(fact.blockReward) / 1e8,
      feePercent: fact.feePercent,
      price: 0,
    });
    for (const language of ['en', 'ar'] as const) {
      const reply = answerWithRules(row[language], { pool, facts: null, now, network: NETWORK });
      const daily = /([\d.,]+) (?:BTC|LTC)\u2069? (?:a day|في اليوم)/.exec(reply)?.[1] ?? '?';
      const webDaily = web ? Number(web.daily.coins.toPrecision(6)) : Number.NaN;
      report.line(
        `   ${language} "${row[language]}": daily ${daily} ${row.coin}; calculator ${webDaily} ${row.coin}; difference ${fixed(Math.abs(Number(daily.replace(/,/g, '')) - webDaily), 12)}`,
      );
    }
  }
  const started = performance.now();
  for (let i = 0; i < repeats; i += 1)
    answerWithRules(i % 2 ? ESTIMATES[0].ar : ESTIMATES[0].en, { pool, facts: null, now, network: NETWORK });
  const elapsed = performance.now() - started;
  report.line(
    `   ${int(repeats)} estimate replies in ${fixed(elapsed)} ms (${fixed((elapsed * 1000) / repeats)} µs each)`,
  );

  report.line('2. Bidi isolation in Arabic answers');
  let runs = 0;
  let bare = 0;
  let sha = 0;
  let shaIsolated = 0;
  for (const question of ARABIC_QUESTIONS) {
    const reply = answerWithRules(question, { pool, facts: null, now, network: NETWORK });
    const isolated = reply.match(/\u2068[^\u2069]*\u2069/g) ?? [];
    const outside = reply.replace(/\u2068[^\u2069]*\u2069/g, ' ');
    const bareRuns = (outside.match(/[A-Za-z][A-Za-z0-9\-./:+_@%]*/g) ?? []).length;
    runs += isolated.length;
    bare += bareRuns;
    sha += (reply.match(/SHA-256/g) ?? []).length;
    shaIsolated += isolated.filter((run) => run.includes('SHA-256')).length;
    report.line(
      `   "${question}": ${isolated.length} isolated runs, ${bareRuns} Latin runs without an isolate`,
    );
  }
  report.line(
    `   total: ${runs} isolated runs (${FSI === '\u2068' && PDI === '\u2069' ? 'U+2068..U+2069' : '?'}), ${bare} left bare; SHA-256 ${sha} times, ${shaIsolated} isolated`,
  );

  report.line('3. Auto Logout ends an idle session and says so (PGlite, real HTTP)');
  const database = await openTestDatabase('pglite');
  const api = await startTestApi(database.db);
  try {
    const { token } = await api.signUp('idle');
    await api.request('PUT', '/api/settings', { token, body: { autoLogout: true } });
    const fresh = await api.request('GET', '/api/me', { token });
    api.clock.now += 31 * 60_000;
    const t0 = performance.now();
    const ended = await api.request('GET', '/api/me', { token });
    const endedMs = performance.now() - t0;
    const after = await api.request('GET', '/api/me', { token });
    const error = (response: { json: unknown }): { code?: string; message?: string } =>
      (response.json as { error?: { code?: string; message?: string } } | undefined)?.error ?? {};
    report.line(`   active session: ${fresh.status}`);
    report.line(
      `   after 31 min idle: ${ended.status} ${String(error(ended).code)} in ${fixed(endedMs)} ms ("${String(error(ended).message)}")`,
    );
    report.line(`   the same token again: ${after.status} ${String(error(after).code)}`);
  } finally {
    await api.close();
    await database.drop();
  }
}
