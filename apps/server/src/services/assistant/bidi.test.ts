import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/index.js';
import { isolateLtr } from './bidi.js';
import { poolInfoFromConfig } from './pool-info.js';
import { answerWithRules } from './rules.js';

const pool = poolInfoFromConfig(parseConfig({ publicHost: 'pool.manjam.example' }));
const now = new Date('2026-11-22T12:00:00Z');

describe('bidi isolation of left-to-right tokens in Arabic answers', () => {
  it('isolates algorithm names, units, amounts, URLs and paths, and leaves bare numbers and punctuation outside', () => {
    expect(isolateLtr('خوارزمية SHA-256: منفذ 3333.')).toBe('خوارزمية \u2068SHA-256\u2069: منفذ 3333.');
    expect(isolateLtr('معدل التجزئة 100 TH/s، والحد 0.01 BTC.')).toBe(
      'معدل التجزئة \u2068100 TH/s\u2069، والحد \u20680.01 BTC\u2069.',
    );
    expect(isolateLtr('الرابط stratum+tcp://pool.manjam.example:4444 (يعمل الآن)')).toBe(
      'الرابط \u2068stratum+tcp://pool.manjam.example:4444\u2069 (يعمل الآن)',
    );
    expect(isolateLtr('العنوان rltc1qabc…، التفاصيل: /mining/scrypt')).toBe(
      'العنوان \u2068rltc1qabc\u2069…، التفاصيل: \u2068/mining/scrypt\u2069',
    );
  });

  it('never lets "SHA-256" be split in an Arabic answer about Bitcoin, and keeps English answers as they are', () => {
    const arabic = answerWithRules('كيف أعدّن البيتكوين؟', { pool, facts: null, now });
    expect(arabic).toContain('\u2068SHA-256\u2069');
    expect(arabic).not.toMatch(/[^\u2068]SHA-256|SHA-256[^\u2069]/);
    const english = answerWithRules('how do I mine bitcoin?', { pool, facts: null, now });
    expect(english).toContain('SHA-256');
    expect(english).not.toMatch(/[\u2068\u2069]/);
  });
});
