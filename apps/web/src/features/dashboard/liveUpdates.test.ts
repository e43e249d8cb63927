import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectLive } from './liveUpdates';

class FakeSocket {
  static instances: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  close(): void {
    this.closed = true;
  }
  receive(data: string): void {
    this.onmessage?.(new MessageEvent('message', { data }));
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('live updates', () => {
  it('marks the payout and dashboard queries stale once per burst of messages', () => {
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue(undefined);
    const stop = connectLive('tok', client);
    const socket = FakeSocket.instances[0];
    expect(socket?.url).toBe('ws://localhost:3000/api/live?token=tok');
    socket?.receive('{"type":"payout","coin":"BTC"}');
    socket?.receive('{"type":"payout","coin":"BTC"}');
    socket?.receive('{"type":"hello","userId":1}');
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      ['revenue'],
      ['dashboard'],
      ['revenue-summary'],
    ]);
    stop();
  });

  it('refreshes the dashboard, workers, the sidebar (/api/me) and the money summary together when shares arrive', () => {
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue(undefined);
    const stop = connectLive('tok', client);
    FakeSocket.instances.at(-1)?.receive('{"type":"share","coin":"LTC"}');
    vi.advanceTimersByTime(1000);
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      ['workers'],
      ['dashboard'],
      ['me'],
      ['revenue-summary'],
    ]);
    stop();
  });

  it('reconnects after 1 s, then 2 s, and stops for good when unmounted', () => {
    const stop = connectLive('tok', new QueryClient());
    FakeSocket.instances[0]?.onclose?.();
    vi.advanceTimersByTime(999);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.instances[1]?.onclose?.();
    vi.advanceTimersByTime(2000);
    expect(FakeSocket.instances).toHaveLength(3);
    stop();
    expect(FakeSocket.instances[2]?.closed).toBe(true);
    FakeSocket.instances[2]?.onclose?.();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(3);
  });

  it('keeps backing off when the server closes each socket before a message (past its caps)', () => {
    const stop = connectLive('tok', new QueryClient());
    for (const [index, wait] of [1000, 2000, 4000].entries()) {
      FakeSocket.instances[index]?.onopen?.();
      FakeSocket.instances[index]?.onclose?.();
      vi.advanceTimersByTime(wait - 1);
      expect(FakeSocket.instances).toHaveLength(index + 1);
      vi.advanceTimersByTime(1);
    }
    FakeSocket.instances[3]?.receive('{"type":"hello","userId":1,"at":"2026-12-07T00:00:00.000Z"}');
    FakeSocket.instances[3]?.onclose?.();
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.instances).toHaveLength(5);
    stop();
  });
});
