import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/index.js';
import type { MinerFacts } from './facts.js';
import { poolInfoFromConfig } from './pool-info.js';
import { answerWithRules } from './rules.js';

const now = new Date('2026-11-22T12:00:00Z');
const pool = poolInfoFromConfig(parseConfig({ publicHost: 'pool.manjam.example' }));
const facts: MinerFacts = {
  username: 'alice',
  payoutThresholds: { BTC: 1_000_000n, LTC: 1_000_000n, XMR: 10_000_000_000n, KAS: 1_000_000n },
  payoutAddressSet: true,
  timeZone: 'UTC',
  workers: [],
  hashrates: [],
  money: [],
};
const ask = (message: string, miner: MinerFacts | null) =>
  answerWithRules(message, { pool, facts: miner, now }).replace(/[\u2068\u2069]/g, '');

describe('assistant: why a rig reads low', () => {
  it('explains the 10-minute window of share-based figures to a visitor, and adds the miner own figures when signed in', () => {
    const visitor = ask('Why is my rig hashrate so low?', null);
    expect(visitor).toContain('counts your hashrate from your accepted shares');
    expect(visitor).toContain('the last 10 minutes');
    expect(visitor).toContain('the time it has mined');
    const miner = ask('my miner shows a lower hashrate than cpuminer', facts);
    expect(miner).toContain('the last 10 minutes');
    expect(miner).toContain('You have no workers yet');
  });

  it('explains it in Arabic', () => {
    const reply = ask('لماذا معدل الهاش منخفض في جهازي؟', null);
    expect(reply).toContain('يحسب المجمع معدل التجزئة من حصصك المقبولة');
    expect(reply).toContain('آخر 10 دقائق');
  });

  it('still answers a plain hashrate question with the figures alone', () => {
    expect(ask('what is my hashrate', facts)).not.toContain('the last 10 minutes (for a worker');
  });
});
