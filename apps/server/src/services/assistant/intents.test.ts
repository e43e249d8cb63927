import { PORT_TABLE } from '@manjam/contract';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/index.js';
import type { MinerFacts, WorkerFact } from './facts.js';
import { detectLanguage } from './matcher.js';
import { poolInfoFromConfig } from './pool-info.js';
import { answerWithRules } from './rules.js';

// The questions of issue 15, in English and Arabic: the intent decides the answer, and worker names
// are read only where the question names one of the miner's workers.

const now = new Date('2026-11-22T12:00:00Z');
const pool = poolInfoFromConfig(parseConfig({ publicHost: 'pool.manjam.example' }));
const portOf = (name: string) => PORT_TABLE.find((row) => row.name === name)?.port;

const worker = (name: string, online: boolean, coin: WorkerFact['coin'] = 'BTC'): WorkerFact => ({
  name,
  coin,
  online,
  lastShareAt: new Date('2026-11-22T11:15:00Z'),
  hashrate: online ? 95e12 : 0,
  hashrate24h: 90e12,
  rejectedPercent: 0,
});

const base: MinerFacts = {
  username: 'alice',
  payoutThresholds: { BTC: 1_000_000n, LTC: 1_000_000n, XMR: 10_000_000_000n, KAS: 1_000_000n },
  payoutAddressSet: true,
  timeZone: 'UTC',
  workers: [worker('rig1', false), worker('s19', true)],
  hashrates: [],
  money: [
    {
      coin: 'BTC',
      balance: 1_500_000n,
      earnedToday: 12_345n,
      immature: 0n,
      lastPayoutRunAt: new Date('2026-11-22T00:00:00Z'),
      lastPaid: null,
    },
  ],
};
// The content checks below read answers without their bidi isolates (U+2068/U+2069); the isolation
// itself is checked word for word in bidi.test.ts.
const plain = (text: string): string => text.replace(/[\u2068\u2069]/g, '');
const ask = (message: string, facts: MinerFacts | null = base) =>
  plain(answerWithRules(message, { pool, facts, now }));

describe('assistant: offline worker intent', () => {
  it('answers "Why is my worker offline?" about the offline worker, not a worker named "offline"', () => {
    const reply = ask('Why is my worker offline?');
    expect(reply).not.toContain('named offline');
    expect(reply).toContain('Worker rig1 is offline');
    expect(reply).toContain(`stratum+tcp://pool.manjam.example:${portOf('SHA-256')}`);
    expect(reply).toContain('alice.rig1');
  });

  it('answers "لماذا العامل غير متصل؟" in Arabic about the offline worker, not a worker named "غير"', () => {
    const reply = ask('لماذا العامل غير متصل؟');
    expect(reply).not.toContain('لم أجد');
    expect(reply).not.toContain('غير.');
    expect(reply).toContain('العامل rig1 غير متصل');
    expect(detectLanguage(reply)).toBe('ar');
  });

  it('lists the offline workers with the usual causes when more than one is offline', () => {
    const facts = { ...base, workers: [worker('rig1', false), worker('rig2', false), worker('s19', true)] };
    expect(ask('Why is my worker offline?', facts)).toContain(
      'Offline workers: rig1, rig2. The usual causes',
    );
    expect(ask('لماذا العامل غير متصل؟', facts)).toContain('العمّال غير المتصلين: rig1, rig2');
  });

  it('says every worker is online when none is offline', () => {
    const facts = { ...base, workers: [worker('s19', true)] };
    expect(ask('Why is my worker offline?', facts)).toBe(
      "All your workers are online: s19. Name one and I'll show its details.",
    );
  });

  it('still says when a named worker does not exist ("worker rig7")', () => {
    expect(ask('is worker rig7 down?')).toBe("I can't find a worker named rig7. Your workers: rig1, s19.");
  });
});

describe('assistant: earnings and payout intents', () => {
  it('answers today’s earnings and the balance in both languages', () => {
    expect(ask('How much did I earn today?')).toBe(
      'Today (since 00:00 UTC) you earned 0.00012345 BTC; your unpaid balance is 0.015 BTC.',
    );
    expect(ask('كم ربحت اليوم؟')).toContain('ربحت اليوم (منذ 00:00 UTC) 0.00012345 BTC');
  });

  it('adds the immature block credits when found blocks are waiting to mature', () => {
    const [btc] = base.money;
    if (!btc) throw new Error('no BTC fact');
    const facts = { ...base, money: [{ ...btc, immature: 99_000n }] };
    expect(ask('How much did I earn today?', facts)).toContain(
      'Found blocks not yet mature will add 0.00099 BTC once they mature.',
    );
    expect(ask('كم ربحت اليوم؟', facts)).toContain('0.00099 BTC');
  });

  it('with no payout address, says so and where to set it instead of "paid in the next run"', () => {
    const facts = { ...base, payoutAddressSet: false };
    const reply = ask('When is my next payout?', facts);
    expect(reply).toContain('You have not set a payout address yet');
    expect(reply).toContain('Settings → Wallet, on the row of each coin you mine (/settings?tab=wallet)');
    expect(reply).toContain('0.015 BTC');
    expect(reply).not.toContain('paid in the next run');
    const arabic = ask('متى الدفعة القادمة؟', facts);
    expect(arabic).toContain('لم تحدد عنوان دفع بعد');
    expect(arabic).toContain('/settings?tab=wallet');
    expect(ask('what is my balance?', facts)).toContain('You have not set a payout address yet');
    expect(ask('كم رصيدي؟', facts)).toContain('لم تحدد عنوان دفع بعد');
  });

  it('with a payout address, tells the next run and the threshold', () => {
    expect(ask('When is my next payout?')).toContain('BTC: next payout run');
    expect(ask('When is my next payout?')).toContain('has reached your threshold 0.01 BTC');
  });
});

describe('assistant: setup by device and algorithm', () => {
  it('answers a Monero/CPU question with RandomX on its live port 1111 and XMRig', () => {
    const reply = ask('How do I mine Monero with my CPU?', null);
    expect(reply).toContain('RandomX');
    expect(portOf('RandomX')).toBe(1111);
    expect(reply).toContain(':1111');
    expect(reply).not.toContain('not live');
    expect(reply).toContain('XMRig');
    expect(reply).not.toContain('GPU setup');
    const arabic = ask('كيف أعدن مونيرو بالمعالج؟', null);
    expect(arabic).toContain('RandomX');
    expect(arabic).not.toContain('غير مفعّلة في منجم بعد');
    expect(arabic).toContain('XMRig');
  });

  it('answers "xmr" with the XMRig command for port 1111, a starting difficulty in hashes and the Monero payout address', () => {
    const reply = ask('xmr setup', null);
    expect(reply).toContain('xmrig -o stratum+tcp://pool.manjam.example:1111 -u account.worker1 -p x');
    expect(reply).toContain('x,d=15000');
    expect(reply).toContain('RandomX difficulty counts hashes');
    expect(reply).toContain('a standard address starts with 4, a subaddress with 8');
    expect(reply).toContain('/mining/randomx');
    const arabic = ask('كيف أعدن XMR؟', null);
    expect(arabic).toContain('xmrig -o stratum+tcp://pool.manjam.example:1111 -u اسم_الحساب.worker1 -p x');
    expect(arabic).toContain('x,d=15000');
    expect(arabic).toContain('عنوان مونيرو');
    expect(arabic).toContain('/mining/randomx');
  });

  it('sends a CPU question without a coin to RandomX', () => {
    expect(ask('I have a CPU, how do I start mining?', null)).toContain('CPU setup');
    expect(ask('I have a CPU, how do I start mining?', null)).toContain('RandomX');
  });

  it('sets up an Antminer S19 on the SHA-256 port of the table, even for a miner with a worker named s19', () => {
    const reply = ask('How do I set up my Antminer S19?');
    expect(reply).toContain('SHA-256');
    expect(reply).toContain(`stratum+tcp://pool.manjam.example:${portOf('SHA-256')} (live)`);
    expect(reply).toContain('ASIC setup');
    const arabic = ask('كيف أضبط جهاز S19؟');
    expect(arabic).toContain('إعداد ASIC');
    expect(arabic).toContain(`:${portOf('SHA-256')}`);
  });
});

describe('assistant: electricity and profitability', () => {
  it('answers an S19 electricity question with its power draw and daily energy, not today’s earnings', () => {
    const reply = ask('How much electricity does my S19 use per day?');
    expect(reply).toContain('Antminer S19 (95.00 TH/s, SHA-256) draws about 3250 W: 78 kWh a day');
    expect(reply).toContain('2340 kWh in 30 days');
    expect(reply).toContain('/mining/calculator');
    expect(reply).not.toContain('you earned');
    const arabic = ask('كم يستهلك جهاز S19 من الكهرباء؟');
    expect(arabic).toContain('3250 واط');
    expect(arabic).toContain('78 كيلوواط ساعة');
    expect(arabic).not.toContain('ربحت');
  });

  it('explains the cost formula when no model is named', () => {
    expect(ask('what does the electricity cost?', null)).toContain('watts × 24 ÷ 1000 × your price per kWh');
    expect(ask('كم تكلفة الكهرباء؟', null)).toContain('الواط × 24 ÷ 1000');
  });
});
