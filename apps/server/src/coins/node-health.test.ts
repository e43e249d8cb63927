import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { NodeHealth, type NodeAvailability } from './node-health.js';

/** NodeHealth on a test clock; `tick` moves it by one check interval (1 s) and checks, as the watcher does. */
function healthAt(silenceMs: number) {
  let now = 1_000_000;
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) },
  );
  const health = new NodeHealth({ coin: 'BTC', silenceMs, checkIntervalMs: 1_000, logger, now: () => now });
  const changes: NodeAvailability[] = [];
  health.onChange((a) => changes.push(a));
  health.check();
  const tick = (times = 1): void => {
    for (let i = 0; i < times; i++) {
      now += 1_000;
      health.check();
    }
  };
  return { health, changes, lines, tick, stall: (ms: number) => (now += ms), now: () => now };
}

describe('node health', () => {
  it('keeps a coin up while its node answers within the silence limit', () => {
    const t = healthAt(30_000);
    for (let i = 0; i < 10; i++) {
      t.tick(10);
      t.health.answered();
    }
    expect(t.health.availability().up).toBe(true);
    expect(t.changes).toEqual([]);
  });

  it('stops a coin once no node has answered for the limit, and logs it at error level once', () => {
    const t = healthAt(30_000);
    t.health.answered();
    t.tick(29);
    expect(t.health.availability().up).toBe(true);
    t.tick(6);
    expect(t.changes).toHaveLength(1);
    expect(t.changes[0]).toMatchObject({ up: false, since: new Date(t.now() - 5_000) });
    const errors = t.lines.filter((l) => l.level === 50);
    expect(errors.map((l) => l.msg)).toEqual([
      'BTC: no node has answered for 30 s; work stopped, miners sent to their backup pools',
    ]);
  });

  it('does not call a coin down on a check that comes late after its own event loop stalled', () => {
    const t = healthAt(3_000);
    t.health.answered();
    t.tick();
    t.stall(4_000);
    t.health.check();
    expect(t.health.availability().up).toBe(true);
    t.tick();
    expect(t.health.availability().up).toBe(false);
  });

  it('gives its verdict on the second of two late checks when its own event loop stays busy', () => {
    const t = healthAt(3_000);
    t.health.answered();
    t.tick();
    t.stall(2_500);
    t.health.check();
    expect(t.health.availability().up).toBe(true);
    t.stall(2_500);
    t.health.check();
    expect(t.health.availability().up).toBe(false);
    expect(t.changes).toHaveLength(1);
  });

  it('says the silence limit has passed at once, before the check announces it', () => {
    const t = healthAt(3_000);
    t.health.answered();
    t.stall(2_999);
    expect(t.health.silentPastLimit()).toBe(false);
    t.stall(1);
    expect(t.health.silentPastLimit()).toBe(true);
    expect(t.health.availability().up).toBe(true);
    t.health.answered();
    expect(t.health.silentPastLimit()).toBe(false);
  });

  it('counts the silence from the start when no node ever answered', () => {
    const t = healthAt(2_000);
    t.tick(2);
    expect(t.health.availability()).toMatchObject({ up: false, lastAnswerAt: null });
  });

  it('resumes a coin at the first answer after it went down', () => {
    const t = healthAt(2_000);
    t.health.answered();
    t.tick(3);
    t.tick(7);
    t.health.answered();
    expect(t.changes.map((c) => c.up)).toEqual([false, true]);
    expect(t.health.availability()).toMatchObject({ up: true, since: new Date(t.now()) });
    expect(t.lines.some((l) => l.level === 40 && l.msg === 'BTC: a node answers again; work resumes')).toBe(
      true,
    );
  });
});
