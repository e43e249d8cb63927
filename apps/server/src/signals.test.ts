import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { handleShutdownSignals, type ShutdownSignal } from './signals.js';

function setup() {
  const target = new EventEmitter();
  let clock = 0;
  const calls: string[] = [];
  const dispose = handleShutdownSignals({
    target: target as unknown as Pick<NodeJS.Process, 'on' | 'off'>,
    now: () => clock,
    onFirst: (signal: ShutdownSignal) => calls.push(`stop ${signal}`),
    onSecond: (signal: ShutdownSignal) => calls.push(`now ${signal}`),
  });
  return { target, calls, dispose, advance: (ms: number) => (clock += ms) };
}

describe('shutdown signals', () => {
  it('asks for a clean stop on the first SIGTERM', () => {
    const { target, calls } = setup();
    target.emit('SIGTERM', 'SIGTERM');
    expect(calls).toEqual(['stop SIGTERM']);
  });

  it('counts a Ctrl+C that reaches the pool twice within a second (terminal and forwarder) once', () => {
    const { target, calls, advance } = setup();
    target.emit('SIGINT', 'SIGINT');
    advance(20);
    target.emit('SIGINT', 'SIGINT');
    expect(calls).toEqual(['stop SIGINT']);
  });

  it('stops at once on a second signal a second or more after the first', () => {
    const { target, calls, advance } = setup();
    target.emit('SIGINT', 'SIGINT');
    advance(1_500);
    target.emit('SIGTERM', 'SIGTERM');
    expect(calls).toEqual(['stop SIGINT', 'now SIGTERM']);
  });

  it('no longer reacts once the handlers are removed', () => {
    const { target, calls, dispose } = setup();
    dispose();
    expect(target.listenerCount('SIGTERM')).toBe(0);
    expect(calls).toEqual([]);
  });
});
