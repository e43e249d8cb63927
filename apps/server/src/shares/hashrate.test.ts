import { describe, expect, it } from 'vitest';
import { HashrateTracker, hashrateFromDifficulty } from './hashrate.js';

const T0 = Date.UTC(2030, 0, 1);

describe('hashrate', () => {
  it('turns difficulty sums into hashes per second per algorithm', () => {
    expect(hashrateFromDifficulty(600, 600, 'sha256d')).toBe(2 ** 32);
    expect(hashrateFromDifficulty(600, 600, 'scrypt')).toBe(2 ** 16);
    expect(hashrateFromDifficulty(5, 0, 'sha256d')).toBe(0);
  });

  it('reports 10 minute, 1 hour and 24 hour windows over the time mined in each', () => {
    const tracker = new HashrateTracker('sha256d');
    tracker.add('w', 600, 600, T0); // 25 minutes before "now"
    tracker.add('w', 600, 900, T0 + 20 * 60_000); // 5 minutes before, after 20 quiet minutes
    const now = T0 + 25 * 60_000;
    // The 10-minute window holds the last 5 minutes' share; 1 h and 24 h the 25 minutes since the first.
    expect(tracker.hashrate('w', '10m', now)).toBe((600 * 2 ** 32) / 300);
    expect(tracker.hashrate('w', '1h', now)).toBe((1200 * 2 ** 32) / 1500);
    expect(tracker.hashrate('w', '24h', now)).toBe((1200 * 2 ** 32) / 1500);
    expect(tracker.live('w', now)).toMatchObject({
      bestDifficulty: 900,
      lastShareAt: new Date(T0 + 20 * 60_000),
    });
  });

  it('shows a worker two minutes old at the rate of its two minutes, never less than a minute', () => {
    const tracker = new HashrateTracker('scrypt');
    for (let s = 0; s < 120; s += 5) tracker.add('new', 1, 1, T0 + s * 1000);
    const now = T0 + 120_000;
    expect(tracker.hashrate('new', '10m', now)).toBe((24 * 2 ** 16) / 120);
    expect(tracker.hashrate('new', '24h', now)).toBe((24 * 2 ** 16) / 120);
    const first = new HashrateTracker('scrypt');
    first.add('one', 1, 1, T0);
    expect(first.hashrate('one', '10m', T0 + 1_000)).toBe(2 ** 16 / 60);
  });

  it('forgets shares once they leave a window and drops keys idle for a day', () => {
    const tracker = new HashrateTracker('scrypt');
    tracker.add('w', 10, 10, T0);
    expect(tracker.hashrate('w', '10m', T0 + 11 * 60_000)).toBe(0);
    expect(tracker.hashrate('w', '1h', T0 + 11 * 60_000)).toBeGreaterThan(0);
    tracker.prune(T0 + 25 * 3_600_000);
    expect(tracker.live('w', T0 + 25 * 3_600_000)).toEqual({
      '10m': 0,
      '1h': 0,
      '24h': 0,
      bestDifficulty: 0,
      lastShareAt: null,
    });
  });
});
