import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/index.js';
import type { MinerFacts } from './facts.js';
import { poolInfoFromConfig } from './pool-info.js';
import { answerWithRules } from './rules.js';

const now = new Date('2026-11-22T12:00:00Z');
const pool = poolInfoFromConfig(parseConfig({ publicHost: 'pool.manjam.example' }));
const money = (coin: 'BTC' | 'LTC', balance: bigint) => ({
  coin,
  balance,
  earnedToday: 0n,
  immature: 0n,
  lastPayoutRunAt: new Date('2026-11-22T00:00:00Z'),
  lastPaid: null,
});
// BTC paid at 0.05 BTC, LTC at 0.5 LTC: one threshold per coin (Settings → Wallet).
const facts: MinerFacts = {
  username: 'amal',
  payoutThresholds: { BTC: 5_000_000n, LTC: 50_000_000n, XMR: 10_000_000_000n, KAS: 1_000_000_000n },
  payoutAddressSet: true,
  timeZone: 'UTC',
  workers: [],
  hashrates: [],
  money: [money('BTC', 6_000_000n), money('LTC', 20_000_000n)],
};

describe('assistant payout thresholds, one per coin', () => {
  it('judges each coin against its own threshold, with its unit (en)', () => {
    const reply = answerWithRules('when is my next payout?', { pool, facts, now });
    expect(reply).toContain('your balance 0.06 BTC has reached your threshold 0.05 BTC');
    expect(reply).toContain('your balance 0.2 LTC is below your threshold 0.5 LTC; you need 0.3 LTC more');
  });

  it('judges each coin against its own threshold, with its unit, isolated (ar)', () => {
    const reply = answerWithRules('متى الدفعة القادمة؟', { pool, facts, now });
    expect(reply).toContain('رصيدك \u20680.06 BTC\u2069 بلغ حدّك \u20680.05 BTC\u2069');
    expect(reply).toContain(
      'رصيدك \u20680.2 LTC\u2069 أقل من حدّك \u20680.5 LTC\u2069؛ تحتاج \u20680.3 LTC\u2069 إضافية',
    );
  });

  it('tells a visitor each live coin has its own threshold and range, never one bare list', () => {
    const en = answerWithRules('what is manjam?', { pool, facts: null, now });
    expect(en).toContain(
      "once a coin's balance reaches that coin's own threshold, which you choose per coin in Settings → Wallet: BTC 0.01 BTC by default (0.001 BTC to 100 BTC); LTC 0.01 LTC by default (0.001 LTC to 10000 LTC); KAS 10 KAS by default (1 KAS to 10000000 KAS); XMR 0.01 XMR by default (0.001 XMR to 10000 XMR).",
    );
    expect(en).not.toContain('(0.001, 0.01 or 0.1)');
    const ar = answerWithRules('ما هو منجم؟', { pool, facts: null, now });
    expect(ar).toContain(
      'وتختاره لكل عملة في الإعدادات ← المحفظة: \u2068BTC\u2069 افتراضيًا \u20680.01 BTC\u2069 (من \u20680.001 BTC\u2069 إلى \u2068100 BTC\u2069)؛ \u2068LTC\u2069 افتراضيًا \u20680.01 LTC\u2069 (من \u20680.001 LTC\u2069 إلى \u206810000 LTC\u2069)؛ \u2068KAS\u2069 افتراضيًا \u206810 KAS\u2069',
    );
  });
});
