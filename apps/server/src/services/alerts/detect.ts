import type { AlertKind, WorkerAlertState, WorkerAlertStatus } from '../../db/repositories/alerts.js';
import type { AlertSettings } from '../../config/alerts.js';

// The per-worker state machine (pure). It debounces: a worker that flaps (drops, comes back,
// drops again before it has been back for `recoveryMinutes`) stays in one outage: one offline
// alert, then one recovery notice when it has stayed back.
//
//   online --silent >= offlineMinutes--> offline          [worker-offline]
//   offline --sharing again--> recovering
//   recovering --silent again--> offline                  (same outage, no alert)
//   recovering --back for recoveryMinutes--> online       [worker-recovered]
//   online: recent < drop% of the 24 h average --> low    [hashrate-drop], reset at drop% * 1.2

export interface WorkerObservation {
  workerId: number;
  name: string;
  coin: string;
  lastShareAt: Date | null;
  status: WorkerAlertStatus;
  offlineSince: Date | null;
  backSince: Date | null;
  hashrateLowSince: Date | null;
  /** H/s over the last 10 minutes. */
  recentHashrate: number;
  /** H/s averaged over `historySeconds` (up to 24 h). */
  averageHashrate: number;
  historySeconds: number;
  /** The worker's own thresholds (set per worker or as the account default); absent = config's. */
  offlineMinutes?: number | null;
  dropPercent?: number | null;
}

export interface RaisedAlert {
  kind: AlertKind;
  dedupeKey: string;
  payload: Record<string, string | number | boolean | null>;
}

export interface Transition {
  state: WorkerAlertState;
  alert: RaisedAlert | null;
  changed: boolean;
}

const HYSTERESIS = 1.2;

export function observeWorker(worker: WorkerObservation, now: Date, settings: AlertSettings): Transition {
  const state: WorkerAlertState = {
    workerId: worker.workerId,
    status: worker.status,
    offlineAlertId: null,
    offlineSince: worker.offlineSince,
    backSince: worker.backSince,
    hashrateLowSince: worker.hashrateLowSince,
  };
  const base = { worker: worker.name, coin: worker.coin };
  const offlineMinutes = worker.offlineMinutes ?? settings.offlineMinutes;
  const silent =
    worker.lastShareAt === null || now.getTime() - worker.lastShareAt.getTime() >= offlineMinutes * 60_000;

  if (worker.status === 'online' && silent && worker.lastShareAt) {
    const since = worker.lastShareAt;
    const next = {
      ...state,
      status: 'offline' as const,
      offlineSince: since,
      backSince: null,
      hashrateLowSince: null,
    };
    const payload = { ...base, lastShareAt: since.toISOString(), minutes: offlineMinutes };
    return {
      state: next,
      alert: {
        kind: 'worker-offline',
        dedupeKey: `worker-offline:${worker.workerId}:${since.getTime()}`,
        payload,
      },
      changed: true,
    };
  }
  if (worker.status === 'offline') {
    if (silent) return { state, alert: null, changed: false };
    return { state: { ...state, status: 'recovering', backSince: now }, alert: null, changed: true };
  }
  if (worker.status === 'recovering') {
    if (silent)
      return { state: { ...state, status: 'offline', backSince: null }, alert: null, changed: true };
    const backSince = worker.backSince ?? now;
    if (now.getTime() - backSince.getTime() < settings.recoveryMinutes * 60_000)
      return { state, alert: null, changed: false };
    const offlineSince = worker.offlineSince ?? backSince;
    const downtimeMinutes = Math.max(0, Math.round((backSince.getTime() - offlineSince.getTime()) / 60_000));
    const payload = {
      ...base,
      offlineSince: offlineSince.toISOString(),
      backSince: backSince.toISOString(),
      downtimeMinutes,
    };
    const next = {
      ...state,
      status: 'online' as const,
      offlineSince: null,
      backSince: null,
      hashrateLowSince: null,
    };
    const dedupeKey = `worker-recovered:${worker.workerId}:${offlineSince.getTime()}`;
    return { state: next, alert: { kind: 'worker-recovered', dedupeKey, payload }, changed: true };
  }
  return observeHashrate(worker, state, now, settings);
}

function observeHashrate(
  worker: WorkerObservation,
  state: WorkerAlertState,
  now: Date,
  settings: AlertSettings,
): Transition {
  const enoughHistory =
    worker.historySeconds >= settings.hashrateMinHistoryMinutes * 60 && worker.averageHashrate > 0;
  const percent = worker.dropPercent ?? settings.hashrateDropPercent;
  const limit = (worker.averageHashrate * percent) / 100;
  if (enoughHistory && !worker.hashrateLowSince && worker.recentHashrate < limit) {
    const payload = {
      worker: worker.name,
      coin: worker.coin,
      current: worker.recentHashrate,
      average: worker.averageHashrate,
      percent,
    };
    // One per worker and clock hour: two alert loops (api and accounting roles) never both raise it.
    const dedupeKey = `hashrate-drop:${worker.workerId}:${Math.floor(now.getTime() / 3_600_000)}`;
    return {
      state: { ...state, hashrateLowSince: now },
      alert: { kind: 'hashrate-drop', dedupeKey, payload },
      changed: true,
    };
  }
  if (worker.hashrateLowSince && worker.recentHashrate >= limit * HYSTERESIS) {
    return { state: { ...state, hashrateLowSince: null }, alert: null, changed: true };
  }
  return { state, alert: null, changed: false };
}
