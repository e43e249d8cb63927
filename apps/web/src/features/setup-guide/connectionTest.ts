// Test Connection: ask the API every 2 s how far the worker got, judged on the server by the
// worker's last accepted share (a worker already sharing passes on the first answer; waiting -> connected and
// authorized -> first share accepted), for up to 60 s; once it is authorized, for up to 10 min
// (a CPU or GPU miner can take minutes for its first share). No random outcome: success is the
// server accepting a share, failure is the deadline.
import { apiFetch } from '../../lib/api';
import type { ConnectionStatus } from '../api-types';

export const POLL_INTERVAL_MS = 2_000;
export const POLL_TIMEOUT_MS = 60_000;
/** The deadline once the worker is connected and authorized, waiting for its first share. */
export const AUTHORIZED_TIMEOUT_MS = 10 * 60_000;

/** timeout: never connected; authorized: connected but no share accepted by the later deadline. */
export type ConnectionOutcome = 'connected' | 'authorized' | 'timeout' | 'cancelled';

export interface PollOptions {
  check: (signal: AbortSignal) => Promise<ConnectionStatus>;
  signal: AbortSignal;
  /** Milliseconds elapsed since the start, after each attempt. */
  onProgress?: (elapsedMs: number) => void;
  /** Each answer, as it comes: the stage reached so far. */
  onStatus?: (status: ConnectionStatus) => void;
  intervalMs?: number;
  timeoutMs?: number;
  authorizedTimeoutMs?: number;
  now?: () => number;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Polls `check` until it reports connected, the timeout passes, or the signal aborts.
 * A failed request (network, 404 before the first share) counts as "not yet" and polling goes on.
 */
export async function pollConnection(options: PollOptions): Promise<ConnectionOutcome> {
  const { check, signal, onProgress, onStatus } = options;
  const intervalMs = options.intervalMs ?? POLL_INTERVAL_MS;
  let timeoutMs = options.timeoutMs ?? POLL_TIMEOUT_MS;
  let authorized = false;
  const now = options.now ?? Date.now;
  const started = now();
  for (;;) {
    if (signal.aborted) return 'cancelled';
    try {
      const status = await check(signal);
      onStatus?.(status);
      if (status.connected) return 'connected';
      if (status.stage === 'authorized' && !authorized) {
        authorized = true;
        timeoutMs = Math.max(timeoutMs, options.authorizedTimeoutMs ?? AUTHORIZED_TIMEOUT_MS);
      }
    } catch {
      // Not reachable or not registered yet: keep polling until the deadline.
    }
    if (signal.aborted) return 'cancelled';
    const elapsed = now() - started;
    onProgress?.(Math.min(elapsed, timeoutMs));
    if (elapsed + intervalMs > timeoutMs) return authorized ? 'authorized' : 'timeout';
    await wait(intervalMs, signal);
  }
}

export function fetchConnection(workerName: string, signal: AbortSignal): Promise<ConnectionStatus> {
  return apiFetch<ConnectionStatus>(`/api/workers/${encodeURIComponent(workerName)}/connection`, { signal });
}
