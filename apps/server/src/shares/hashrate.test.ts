import { describe, expect, it } from 'vitest';
import { HashrateTracker, hashrateFromDifficulty } from './hashrate.js';

const T0 = Date.UTC(2030, 0, 1);

describe('hashrate', () => {
  it('turns difficulty sums into hashes per second per algorithm', () => {
    expect(hashrateFromDifficulty(600, 600, 'sha256d')).toBe(2 ** 32);
    expect(hashrateFromDifficulty(600, 600, 'scrypt')).toBe(2 ** 16);
    expect(hashrateFromDifficulty(5, 0, 'sha256d')).toBe(0);
  });

  it('reports 10 minute, 1 hour and 24 hour windows from the shares inside each', () => {
    const tracker = new HashrateTracker('sha256d');
    tracker.add('w', 600, 600, T0); // 25 minutes before "now"
    tracker.add('w', 600, 900, T0 + 20 * 60_000); // 5 minutes before
    const now = T0 + 25 * 60_000;
    expect(tracker.hashrate('w', '10m', now)).toBe((600 * 2 ** 32) / 600);
    expect(tracker.hashrate('w', '1h', now)).toBe((1200 * 2 ** 32) / 3600);
    expect(tracker.hashrate('w', '24h', now)).toBe((1200 * 2 ** 32) / 86_400);
    expect(tracker.live('w', now)).toMatchObject({
      bestDifficulty: 900,
      lastShareAt: new Date(T0 + 20 * 60_000),
    });
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
