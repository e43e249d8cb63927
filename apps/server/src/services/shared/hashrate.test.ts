import { describe, expect, it } from 'vitest';
import type { WorkerHashrateRow } from '../../db/repositories/queries-activity.js';
import { averagingSeconds, summarizeHashrate } from './hashrate.js';

const now = new Date('2026-11-25T12:00:00Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);

function row(
  partial: Partial<WorkerHashrateRow> & Pick<WorkerHashrateRow, 'workerId' | 'coin'>,
): WorkerHashrateRow {
  return {
    difficulty10m: 0,
    difficulty1h: 0,
    difficulty24h: 0,
    firstBucket10m: null,
    firstBucket1h: null,
    firstBucket24h: null,
    firstShare24h: null,
    accepted24h: 0,
    rejected24h: 0,
    lastShareAt: null,
    ...partial,
  };
}

describe('averagingSeconds', () => {
  it('averages over the whole window, or since the first share when shorter, never under a minute', () => {
    expect(averagingSeconds(now, null)).toBe(86_400);
    expect(averagingSeconds(now, minutesAgo(120))).toBe(7_200);
    expect(averagingSeconds(now, minutesAgo(2))).toBe(120);
    expect(averagingSeconds(now, minutesAgo(0.25))).toBe(60);
    expect(averagingSeconds(now, minutesAgo(90), 3_600)).toBe(3_600);
  });
});

describe('summarizeHashrate', () => {
  it('gives each algorithm its own real-time and 24 h figures and never adds SHA-256 to Scrypt', () => {
    const rows = [
      // A SHA-256 rig mining for two hours at 600 difficulty a minute.
      row({
        workerId: 1,
        coin: 'BTC',
        difficulty10m: 6_000,
        difficulty1h: 36_000,
        difficulty24h: 72_000,
        firstBucket10m: minutesAgo(10),
        firstBucket1h: minutesAgo(60),
        firstBucket24h: minutesAgo(120),
        accepted24h: 990,
        rejected24h: 10,
        lastShareAt: minutesAgo(1),
      }),
      // A Scrypt CPU that started 5 minutes ago.
      row({
        workerId: 2,
        coin: 'LTC',
        difficulty10m: 10,
        difficulty1h: 10,
        difficulty24h: 10,
        firstBucket10m: minutesAgo(5),
        firstBucket1h: minutesAgo(5),
        firstBucket24h: minutesAgo(5),
        accepted24h: 10,
        lastShareAt: minutesAgo(2),
      }),
      // A SHA-256 worker idle all day (its last share was yesterday).
      row({ workerId: 3, coin: 'BTC', lastShareAt: minutesAgo(26 * 60) }),
    ];
    const result = summarizeHashrate(rows, now);
    expect(result.algorithms).toEqual([
      {
        algorithm: 'sha256',
        coin: 'BTC',
        realtime: (6_000 * 2 ** 32) / 600,
        hour: (36_000 * 2 ** 32) / 3_600,
        day: (72_000 * 2 ** 32) / 7_200,
        activeWorkers: 1,
        countedUpTo: minutesAgo(1).toISOString(),
        // The idle worker mined in none of them: the rig's spans, its day being its two hours.
        averagedSeconds: { realtime: 600, hour: 3_600, day: 7_200 },
      },
      {
        algorithm: 'scrypt',
        coin: 'LTC',
        // It mined 5 minutes: every average covers those 5 minutes, not 10 or 60.
        realtime: (10 * 2 ** 16) / 300,
        hour: (10 * 2 ** 16) / 300,
        day: (10 * 2 ** 16) / 300,
        activeWorkers: 1,
        countedUpTo: minutesAgo(2).toISOString(),
        averagedSeconds: { realtime: 300, hour: 300, day: 300 },
      },
    ]);
    expect(result.workers.get(1)).toMatchObject({ coin: 'BTC', rejectRate: 1 });
    expect(result.workers.get(3)).toEqual({
      coin: 'BTC',
      realtime: 0,
      hour: 0,
      day: 0,
      rejectRate: 0,
      countedUpTo: minutesAgo(26 * 60),
      averagedSeconds: { realtime: 600, hour: 3_600, day: 86_400 },
    });
  });

  it('says an algorithm counts no share yet while none of its workers has sent one', () => {
    const result = summarizeHashrate([row({ workerId: 4, coin: 'LTC' })], now);
    expect(result.algorithms[0]).toMatchObject({ coin: 'LTC', activeWorkers: 0, countedUpTo: null });
    expect(result.workers.get(4)?.countedUpTo).toBeNull();
  });

  it('has no figures for a user without workers', () => {
    expect(summarizeHashrate([], now)).toEqual({ workers: new Map(), algorithms: [] });
  });
});

describe('a worker younger than its windows', () => {
  it('averages from the share slot of its first share when that share lies in its first minute bucket', () => {
    const first = new Date(now.getTime() - 125_000);
    const bucket = new Date(Math.floor(first.getTime() / 60_000) * 60_000);
    const result = summarizeHashrate(
      [
        row({
          workerId: 5,
          coin: 'BTC',
          difficulty10m: 1_250,
          difficulty1h: 1_250,
          difficulty24h: 1_250,
          firstBucket10m: bucket,
          firstBucket1h: bucket,
          firstBucket24h: bucket,
          firstShare24h: first,
          accepted24h: 125,
          lastShareAt: now,
        }),
      ],
      now,
    );
    const figures = result.workers.get(5);
    // From the start of the first share's 10 s slot (shares/slots.ts), as the share log stores it.
    const seconds = (now.getTime() - Math.floor(first.getTime() / 10_000) * 10_000) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(125);
    expect(seconds).toBeLessThan(135);
    expect(figures?.averagedSeconds).toEqual({ realtime: seconds, hour: seconds, day: seconds });
    expect(figures?.realtime).toBeCloseTo((1_250 * 2 ** 32) / seconds, 0);
    expect(figures?.day).toBe(figures?.realtime);
  });
});
