import { describe, expect, it } from 'vitest';
import { alertSettingsSchema } from '../../config/alerts.js';
import { observeWorker, type WorkerObservation } from './detect.js';

// Issue 27: the detector uses each worker's own thresholds (or the account default resolved into
// them), and the pool's config only when the worker has none.

const settings = alertSettingsSchema.parse({});
const t0 = new Date('2026-11-22T10:00:00Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

function worker(overrides: Partial<WorkerObservation>): WorkerObservation {
  return {
    workerId: 9,
    name: 'rig9',
    coin: 'LTC',
    lastShareAt: t0,
    status: 'online',
    offlineSince: null,
    backSince: null,
    hashrateLowSince: null,
    recentHashrate: 100e6,
    averageHashrate: 100e6,
    historySeconds: 86_400,
    ...overrides,
  };
}

describe('per-worker alert thresholds', () => {
  it('calls a worker with a 3-minute threshold offline after 3 silent minutes, where the pool waits 10', () => {
    const own = observeWorker(worker({ offlineMinutes: 3 }), at(3), settings);
    expect(own.alert?.kind).toBe('worker-offline');
    expect(own.alert?.payload.minutes).toBe(3);
    expect(observeWorker(worker({}), at(3), settings).alert).toBeNull();
  });

  it('keeps a worker with a 60-minute threshold online after 30 silent minutes', () => {
    expect(observeWorker(worker({ offlineMinutes: 60 }), at(30), settings).alert).toBeNull();
    expect(observeWorker(worker({ offlineMinutes: 60 }), at(60), settings).alert?.payload.minutes).toBe(60);
  });

  it('uses the pool default of 10 minutes when the worker and account have none (null)', () => {
    expect(observeWorker(worker({ offlineMinutes: null }), at(9), settings).alert).toBeNull();
    expect(observeWorker(worker({ offlineMinutes: null }), at(10), settings).alert?.payload.minutes).toBe(10);
  });

  it('raises a hashrate drop at the worker’s own percent and reports that percent', () => {
    // 70 % of the average: below an own 80 % threshold, above the pool's 50 %.
    const recent = { recentHashrate: 70e6, lastShareAt: at(1) };
    const own = observeWorker(worker({ ...recent, dropPercent: 80 }), at(1), settings);
    expect(own.alert?.kind).toBe('hashrate-drop');
    expect(own.alert?.payload.percent).toBe(80);
    expect(observeWorker(worker(recent), at(1), settings).alert).toBeNull();
  });

  it('does not raise a drop to 40 % for a worker that asked for alerts only below 30 %', () => {
    const observed = worker({ recentHashrate: 40e6, lastShareAt: at(1), dropPercent: 30 });
    expect(observeWorker(observed, at(1), settings).alert).toBeNull();
    expect(observeWorker({ ...observed, dropPercent: null }, at(1), settings).alert?.payload.percent).toBe(
      50,
    );
  });
});
