import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { spawnManaged } from './child.js';
import { startSupervised } from './supervisor.js';

function capture() {
  const lines: { level: number; msg: string; inMs?: number }[] = [];
  const logger = pino(
    { level: 'warn' },
    { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) },
  );
  return { logger, lines };
}

describe('the dev node supervisor', () => {
  it('restarts a node that keeps dying with a growing back-off instead of spinning, and stops for good', async () => {
    const { logger, lines } = capture();
    const { child } = await startSupervised({
      name: 'test node',
      logger,
      spawn: () => spawnManaged(process.execPath, ['-e', 'setTimeout(() => process.exit(3), 20)'], logger),
      ready: () => Promise.resolve(),
      minBackoffMs: 100,
      maxBackoffMs: 400,
    });
    const deaths = () => lines.filter((l) => l.msg === 'test node died (exit code 3); restarting');
    await vi.waitFor(() => expect(deaths().length).toBeGreaterThanOrEqual(4), {
      timeout: 15_000,
      interval: 50,
    });
    await child.stop();
    // Back-offs 100, 200, 400, 400 ms: a node that keeps dying is not restarted in a tight loop.
    expect(
      deaths()
        .slice(0, 4)
        .map((l) => l.inMs),
    ).toEqual([100, 200, 400, 400]);
    const restarts = child.restarts();
    await delay(600);
    expect(child.restarts()).toBe(restarts);
    // Five node processes start and die here: on a loaded machine that alone can pass 5 s.
  }, 30_000);

  it('names the signal that killed the node', async () => {
    const { logger, lines } = capture();
    const { child } = await startSupervised({
      name: 'test node',
      logger,
      spawn: () => spawnManaged(process.execPath, ['-e', 'setInterval(() => undefined, 1000)'], logger),
      ready: () => Promise.resolve(),
      minBackoffMs: 50,
    });
    const first = child.current().proc.pid as number;
    process.kill(first, 'SIGKILL');
    const expected = ['test node died (signal SIGKILL); restarting', 'test node restarted'];
    await vi.waitFor(() => expect(lines.map((l) => l.msg)).toEqual(expected), {
      timeout: 10_000,
      interval: 50,
    });
    expect(child.current().proc.pid).not.toBe(first);
    expect(child.current().hasExited()).toBe(false);
    await child.stop();
    expect(child.current().hasExited()).toBe(true);
  });
});
