// Live feed: WebSocket /api/live?token= pushes {type: 'hashrate'|'worker'|'share'|'block'|'payout'}.
// Each message marks the matching TanStack queries stale; reconnects with exponential backoff.
import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useAuth } from '../../lib/auth';

export const LIVE_EVENT_TYPES = ['hashrate', 'worker', 'share', 'block', 'payout'] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/** Query key prefixes each kind of event makes stale ('me': the sidebar's hashrate per algorithm). */
export const LIVE_INVALIDATIONS: Record<LiveEventType, readonly string[]> = {
  hashrate: ['hashrate', 'dashboard', 'me'],
  worker: ['workers', 'miners', 'dashboard', 'me'],
  share: ['workers', 'dashboard', 'me', 'revenue-summary'],
  block: ['revenue', 'dashboard', 'revenue-summary'],
  payout: ['revenue', 'dashboard', 'revenue-summary'],
};

export function parseLiveMessage(data: unknown): LiveEventType | null {
  if (typeof data !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(data);
    const type = (parsed as { type?: unknown } | null)?.type;
    return LIVE_EVENT_TYPES.find((t) => t === type) ?? null;
  } catch {
    return null;
  }
}

/** 1 s, 2 s, 4 s ... capped at 60 s. */
export function backoffDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 60_000);
}

export function liveUrl(token: string, base: string, location: Location): string {
  const origin = base || location.origin;
  const url = new URL('/api/live', origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('token', token);
  return url.toString();
}

const API_BASE: string = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';
/** Burst of share messages collapse into one refetch per key within this window. */
const FLUSH_MS = 1000;

/** Opens the live socket; returns a stop function. Exported for tests. */
export function connectLive(token: string, client: QueryClient): () => void {
  let socket: WebSocket | null = null;
  let attempt = 0;
  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const pending = new Set<string>();

  const flush = (): void => {
    flushTimer = undefined;
    for (const key of pending) void client.invalidateQueries({ queryKey: [key] });
    pending.clear();
  };
  const open = (): void => {
    if (stopped) return;
    socket = new WebSocket(liveUrl(token, API_BASE, window.location));
    socket.onmessage = (event: MessageEvent) => {
      // A message means the server took the socket (a socket past its caps is closed, code
      // 4429, before any): only then does the backoff start over.
      attempt = 0;
      const type = parseLiveMessage(event.data);
      if (!type) return;
      for (const key of LIVE_INVALIDATIONS[type]) pending.add(key);
      flushTimer ??= setTimeout(flush, FLUSH_MS);
    };
    socket.onclose = () => {
      if (stopped) return;
      retryTimer = setTimeout(open, backoffDelay(attempt));
      attempt += 1;
    };
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearTimeout(flushTimer);
    socket?.close();
  };
}

/** Keeps the signed-in screens fresh while mounted; does nothing when signed out. */
export function useLiveUpdates(): void {
  const client = useQueryClient();
  const { token } = useAuth();
  useEffect(() => {
    if (!token || typeof WebSocket === 'undefined') return undefined;
    return connectLive(token, client);
  }, [token, client]);
}
