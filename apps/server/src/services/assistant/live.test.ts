import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/index.js';
import type { MinerFacts } from './facts.js';
import { formatCoinAmount, parseCoinAmount } from '@manjam/protocol';
import { formatHashrate } from '../shared/format.js';
import { poolInfoFromConfig } from './pool-info.js';
import { answerWithRules } from './rules.js';

const now = new Date('2026-11-22T12:00:00Z');
const pool = poolInfoFromConfig(parseConfig({ publicHost: 'pool.manjam.example' }));

const facts: MinerFacts = {
  username: 'alice',
  payoutThresholds: { BTC: 1_000_000n, LTC: 1_000_000n, XMR: 10_000_000_000n, KAS: 1_000_000n },
  payoutAddressSet: true,
  timeZone: 'UTC',
  workers: [
    {
      name: 'rig1',
      coin: 'LTC',
      online: false,
      lastShareAt: new Date('2026-11-22T11:15:00Z'),
      hashrate: 0,
      hashrate24h: 450e6,
      rejectedPercent: 0,
    },
    {
      name: 'rig2',
      coin: 'LTC',
      online: true,
      lastShareAt: new Date('2026-11-22T11:59:30Z'),
      hashrate: 500e6,
      hashrate24h: 480e6,
      rejectedPercent: 1.5,
    },
    {
      name: 's19',
      coin: 'BTC',
      online: true,
      lastShareAt: new Date('2026-11-22T11:59:50Z'),
      hashrate: 95e12,
      hashrate24h: 94e12,
      rejectedPercent: 0.2,
    },
  ],
  // The shared per-algorithm figures (services/shared/hashrate.ts): never summed across algorithms.
  hashrates: [
    {
      algorithm: 'sha256',
      coin: 'BTC',
      realtime: 95e12,
      hour: 95e12,
      day: 94e12,
      activeWorkers: 1,
      countedUpTo: '2026-11-22T11:59:50.000Z',
    },
    {
      algorithm: 'scrypt',
      coin: 'LTC',
      realtime: 500e6,
      hour: 490e6,
      day: 470e6,
      activeWorkers: 1,
      countedUpTo: '2026-11-22T11:59:50.000Z',
    },
  ],
  money: [
    {
      coin: 'BTC',
      balance: 1_500_000n,
      earnedToday: 12_345n,
      immature: 0n,
      lastPayoutRunAt: new Date('2026-11-22T00:00:00Z'),
      lastPaid: null,
    },
    {
      coin: 'LTC',
      balance: 250_000n,
      earnedToday: 40_000n,
      immature: 0n,
      lastPayoutRunAt: null,
      lastPaid: null,
    },
  ],
};
// The content checks below read answers without their bidi isolates (U+2068/U+2069); the isolation
// itself is checked word for word in bidi.test.ts.
const plain = (text: string): string => text.replace(/[\u2068\u2069]/g, '');
const ask = (message: string) => plain(answerWithRules(message, { pool, facts, now }));

describe('assistant live answers for a signed-in miner', () => {
  it('answers "what is my hashrate" per algorithm with the real-time and 24 h figures of the other screens', () => {
    const reply = ask('what is my hashrate');
    expect(reply).toContain(
      'LTC (Scrypt): 500.00 MH/s over the last 10 minutes, 24 h average 470.00 MH/s; 1 of 2 workers online',
    );
    expect(reply).toContain('BTC (SHA-256): 95.00 TH/s over the last 10 minutes, 24 h average 94.00 TH/s');
  });

  it("writes times in the miner's time zone", () => {
    const riyadh = { ...facts, timeZone: 'Asia/Riyadh' };
    const reply = plain(answerWithRules('why is worker rig1 offline', { pool, facts: riyadh, now }));
    expect(reply).toContain('2026-11-22 14:15 GMT+3 (45 minutes ago)');
  });

  it('answers the hashrate question in Arabic', () => {
    const reply = ask('ما هو معدل الهاش الخاص بي؟');
    expect(reply).toContain('معدل التجزئة لديك');
    expect(reply).toContain('500.00 MH/s');
  });

  it('explains why worker rig1 is offline with its last share time and its real pool URL', () => {
    const reply = ask('why is worker rig1 offline');
    expect(reply).toContain('Worker rig1 is offline');
    expect(reply).toContain('2026-11-22 11:15 UTC (45 minutes ago)');
    expect(reply).toContain('stratum+tcp://pool.manjam.example:4444 with username alice.rig1 and password x');
  });

  it('explains an offline worker in Arabic', () => {
    const reply = ask('لماذا العامل rig1 غير متصل؟');
    expect(reply).toContain('العامل rig1 غير متصل');
    expect(reply).toContain('alice.rig1');
  });

  it('says a named worker is online when it is', () => {
    expect(ask('is RIG2 down?')).toContain(
      'Worker rig2 is online: last accepted share less than a minute ago, hashrate 500.00 MH/s',
    );
  });

  it('does not take an ordinary word for a worker of the same name', () => {
    const withDefault: MinerFacts = {
      ...facts,
      workers: [...facts.workers, { ...facts.workers[1]!, name: 'default' }],
    };
    expect(
      answerWithRules('what is the default port for litecoin', { pool, facts: withDefault, now }),
    ).toContain('Litecoin (LTC) (Scrypt) port');
    expect(answerWithRules('how is worker default doing', { pool, facts: withDefault, now })).toContain(
      'Worker default is online',
    );
  });

  it('says when the asked-for worker does not exist and lists the real ones', () => {
    expect(ask('why is worker rig9 offline')).toBe(
      "I can't find a worker named rig9. Your workers: rig1, rig2, s19.",
    );
  });

  it('answers "when is my next payout" from the last run, the interval and the threshold', () => {
    const reply = ask('when is my next payout');
    expect(reply).toContain(
      'BTC: next payout run 2026-11-23 00:00 UTC (every 24 h); your balance 0.015 BTC has reached your threshold 0.01 BTC',
    );
    expect(reply).toContain(
      'LTC: next payout run now (the run is due) (every 24 h); your balance 0.0025 LTC is below your threshold 0.01 LTC; you need 0.0075 LTC more',
    );
  });

  it('answers the payout question in Arabic', () => {
    const reply = ask('متى الدفعة القادمة؟');
    expect(reply).toContain('جولة الدفع القادمة');
    expect(reply).toContain('0.0075 LTC');
  });

  it('answers "how much did I earn today" per coin with the unpaid balance', () => {
    expect(ask('how much did I earn today')).toBe(
      'Today (since 00:00 UTC) you earned 0.00012345 BTC; your unpaid balance is 0.015 BTC. ' +
        'Today (since 00:00 UTC) you earned 0.0004 LTC; your unpaid balance is 0.0025 LTC.',
    );
    expect(ask('كم ربحت اليوم؟')).toContain('ربحت اليوم (منذ 00:00 UTC) 0.00012345 BTC');
  });

  it('answers "which port for litecoin" with the live port in both languages', () => {
    expect(ask('which port for litecoin')).toBe(
      'Litecoin (LTC) (Scrypt) port: stratum+tcp://pool.manjam.example:4444 (live).',
    );
    expect(ask('أي منفذ لللايتكوين؟')).toContain('stratum+tcp://pool.manjam.example:4444 (يعمل الآن)');
  });

  it('tells a miner with no workers how to get one', () => {
    const empty: MinerFacts = {
      username: 'bob',
      payoutThresholds: { BTC: 10_000_000n, LTC: 10_000_000n, XMR: 100_000_000_000n, KAS: 10_000_000n },
      payoutAddressSet: true,
      timeZone: 'UTC',
      workers: [],
      hashrates: [],
      money: [],
    };
    expect(answerWithRules('what is my hashrate', { pool, facts: empty, now })).toContain(
      'You have no workers yet',
    );
  });

  it('personalises the setup example with the account name', () => {
    expect(ask('How to start mining?')).toContain('alice.worker1');
  });
});

describe('assistant number formatting', () => {
  it('formats hashrates adaptively and amounts exactly from base units', () => {
    expect(formatHashrate(0)).toBe('0 H/s');
    expect(formatHashrate(999)).toBe('999 H/s');
    expect(formatHashrate(0.437)).toBe('0.44 H/s');
    expect(formatHashrate(1_234_567)).toBe('1.23 MH/s');
    expect(formatCoinAmount(123_450_000n, 'BTC')).toBe('1.2345 BTC');
    expect(formatCoinAmount(2_100_000_000_000_001n, 'BTC')).toBe('21000000.00000001 BTC');
    expect(parseCoinAmount('0.001')).toBe(100_000n);
    expect(() => parseCoinAmount('1e-3')).toThrow(RangeError);
  });
});
