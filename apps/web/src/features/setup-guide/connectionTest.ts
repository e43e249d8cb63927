// Test Connection: ask the API every 2 s whether the worker has connected, for up to 60 s.
// No random outcome: success is the server seeing the worker, failure is the deadline.
import { apiFetch } from '../../lib/api';
import type { ConnectionStatus } from '../api-types';

export const POLL_INTERVAL_MS = 2_000;
export const POLL_TIMEOUT_MS = 60_000;

export type ConnectionOutcome = 'connected' | 'timeout' | 'cancelled';

export interface PollOptions {
  check: (signal: AbortSignal) => Promise<ConnectionStatus>;
  signal: AbortSignal;
  /** Milliseconds elapsed since the start, after each attempt. */
  onProgress?: (elapsedMs: number) => void;
  intervalMs?: number;
  timeoutMs?: number;
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
  const { check, signal, onProgress } = options;
  const intervalMs = options.intervalMs ?? POLL_INTERVAL_MS;
  const timeoutMs = options.timeoutMs ?? POLL_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const started = now();
  for (;;) {
    if (signal.aborted) return 'cancelled';
    try {
      const status = await check(signal);
      if (status.connected) return 'connected';
    } catch {
      // Not reachable or not registered yet: keep polling until the deadline.
    }
    if (signal.aborted) return 'cancelled';
    const elapsed = now() - started;
    onProgress?.(Math.min(elapsed, timeoutMs));
    if (elapsed + intervalMs > timeoutMs) return 'timeout';
    await wait(intervalMs, signal);
  }
}

export function fetchConnection(workerName: string, signal: AbortSignal): Promise<ConnectionStatus> {
  return apiFetch<ConnectionStatus>(`/api/workers/${encodeURIComponent(workerName)}/connection`, { signal });
}
