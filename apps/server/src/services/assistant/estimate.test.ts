import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/index.js';
import type { MinerFacts } from './facts.js';
import { estimateCoin, hashrateFigure, type CoinNetworkFact } from './estimate.js';
import { prepare } from './matcher.js';
import { poolInfoFromConfig } from './pool-info.js';
import { answerWithRules } from './rules.js';

const now = new Date('2026-11-22T12:00:00Z');
const pool = poolInfoFromConfig(parseConfig({ publicHost: 'pool.manjam.example' }));
// Mainnet-like figures: difficulty 1e14 in the SHA-256 Stratum unit (2^32 hashes), a 3.125 BTC block, 1 % fee.
const network: CoinNetworkFact[] = [
  { coin: 'BTC', difficulty: 1e14, blockReward: 312_500_000n, feePercent: 1 },
  { coin: 'LTC', difficulty: null, blockReward: null, feePercent: 1 },
];
// A miner with credits of their own (en case of the issue) and one with no workers (ar case).
const withCredits: MinerFacts = {
  username: 'khalid',
  payoutThresholds: { BTC: 1_000_000n, LTC: 1_000_000n, XMR: 10_000_000_000n, KAS: 1_000_000n },
  payoutAddressSet: true,
  timeZone: 'UTC',
  workers: [],
  hashrates: [],
  money: [
    {
      coin: 'BTC',
      balance: 13_394_700_000_000n,
      earnedToday: 15_843_712_500_000n,
      immature: 0n,
      lastPayoutRunAt: null,
      lastPaid: null,
    },
  ],
};
const noWorkers: MinerFacts = { ...withCredits, money: [] };

describe('assistant earnings estimate for a named hashrate', () => {
  it('reads the hashrate a miner names in English or Arabic, with Latin or Arabic-Indic digits', () => {
    expect(hashrateFigure('earnings with 100 TH/s')).toEqual({ value: 100, unit: 'TH/s' });
    expect(hashrateFigure('what would 2.5 gh/s make')).toEqual({ value: 2.5, unit: 'GH/s' });
    expect(hashrateFigure('كم أربح بـ ١٠٠ TH/s؟')).toEqual({ value: 100, unit: 'TH/s' });
    expect(hashrateFigure('كم أربح بـ 5 كيلو هاش؟')).toEqual({ value: 5, unit: 'kH/s' });
    expect(hashrateFigure('how much did I earn today')).toBeUndefined();
  });

  it('estimates the coin the message names, else the live coin counted in that unit', () => {
    const figure = { value: 100, unit: 'TH/s' } as const;
    expect(estimateCoin(prepare('earnings with 100 TH/s'), figure, pool)).toBe('BTC');
    expect(estimateCoin(prepare('litecoin earnings with 100 TH/s'), figure, pool)).toBe('LTC');
  });

  it('answers "earnings with 100 TH/s" with the estimate for that hashrate, not the account\'s own credits', () => {
    const reply = answerWithRules('earnings with 100 TH/s', { pool, facts: withCredits, now, network });
    expect(reply).toBe(
      'Estimate for 100 TH/s on SHA-256 (BTC): about 0.0000622356 BTC a day, 0.000435649 BTC a week and 0.00186707 BTC in 30 days, at the network difficulty the pool sees now (100T), a block reward of 3.125 BTC (the newest BTC block the pool found) and the 1.0% pool fee. Luck and difficulty move it; the calculator at /mining/calculator works any other figure.',
    );
    expect(reply).not.toContain('158437');
  });

  it('answers the Arabic question with the estimate, every figure and name bidi-isolated, not "you have no workers"', () => {
    const reply = answerWithRules('كم أربح بـ 100 TH/s؟', { pool, facts: noWorkers, now, network });
    expect(reply).toBe(
      'تقدير لمعدل تجزئة \u2068100 TH/s\u2069 على خوارزمية \u2068SHA-256\u2069 (\u2068BTC\u2069): نحو \u20680.0000622356 BTC\u2069 في اليوم، و\u20680.000435649 BTC\u2069 في الأسبوع، و\u20680.00186707 BTC\u2069 في 30 يومًا، بصعوبة الشبكة التي يراها المجمّع الآن (\u2068100T\u2069)، ومكافأة كتلة قدرها \u20683.125 BTC\u2069 (أحدث كتلة \u2068BTC\u2069 وجدها المجمّع)، بعد رسوم المجمّع 1.0%. يتغيّر التقدير مع الحظ والصعوبة؛ وتحسب الحاسبة في \u2068/mining/calculator\u2069 أي رقم آخر.',
    );
  });

  it('says why it cannot estimate a coin the pool has no difficulty for yet, for a visitor too', () => {
    expect(answerWithRules('litecoin earnings with 500 GH/s', { pool, facts: null, now, network })).toBe(
      'I cannot estimate 500 GH/s on Scrypt (LTC) yet: the pool has no network difficulty for LTC right now. The calculator at /mining/calculator estimates with a difficulty and block reward you enter.',
    );
  });
});
