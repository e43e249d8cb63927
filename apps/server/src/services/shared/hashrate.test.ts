import { describe, expect, it } from 'vitest';
import type { WorkerHashrateRow } from '../../db/repositories/queries-activity.js';
import { averagingSeconds, hasNewWorker, summarizeHashrate, withRecent } from './hashrate.js';

const now = new Date('2026-11-25T12:00:00Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);

function row(
  partial: Partial<WorkerHashrateRow> & Pick<WorkerHashrateRow, 'workerId' | 'coin'>,
): WorkerHashrateRow {
  return {
    difficulty10m: 0,
    difficulty1h: 0,
    difficulty24h: 0,
    firstBucket1h: null,
    firstBucket24h: null,
    accepted24h: 0,
    rejected24h: 0,
    lastShareAt: null,
    ...partial,
  };
}

describe('averagingSeconds', () => {
  it('averages over the whole window, or since the first share when shorter, never under 10 minutes', () => {
    expect(averagingSeconds(now, null)).toBe(86_400);
    expect(averagingSeconds(now, minutesAgo(120))).toBe(7_200);
    expect(averagingSeconds(now, minutesAgo(2))).toBe(600);
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
      },
      {
        algorithm: 'scrypt',
        coin: 'LTC',
        realtime: (10 * 2 ** 16) / 600,
        hour: (10 * 2 ** 16) / 600,
        day: (10 * 2 ** 16) / 600,
        activeWorkers: 1,
        countedUpTo: minutesAgo(2).toISOString(),
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

describe('withRecent and hasNewWorker', () => {
  const long = [
    row({ workerId: 1, coin: 'BTC', difficulty10m: 50, difficulty24h: 900, lastShareAt: minutesAgo(3) }),
  ];
  const recent = (difficulty: number, lastShareAt: Date | null = minutesAgo(0.5)) => ({
    difficulty,
    lastShareAt,
  });

  it('takes the 10-minute sums and the newest share from the fresh read, zero for a worker without recent shares', () => {
    const fresh = withRecent(long, new Map([[1, recent(70)]]))[0];
    expect(fresh?.difficulty10m).toBe(70);
    expect(fresh?.lastShareAt).toEqual(minutesAgo(0.5));
    const quiet = withRecent(long, new Map())[0];
    expect(quiet?.difficulty10m).toBe(0);
    expect(quiet?.lastShareAt).toEqual(minutesAgo(3));
  });

  it('asks for the longer sums again when a worker has its first shares', () => {
    expect(hasNewWorker(long, new Map([[1, recent(70)]]))).toBe(false);
    expect(hasNewWorker(long, new Map([[2, recent(5)]]))).toBe(true);
    expect(hasNewWorker([row({ workerId: 3, coin: 'LTC' })], new Map([[3, recent(1)]]))).toBe(true);
  });
});
