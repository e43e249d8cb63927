// Keeps a dev chain node running: when its process dies on its own (kill -9, a crash) it is
// started again with the same command (same ports, credentials and data), logged at warn.
// A node that keeps dying is restarted with a growing back-off instead of spinning; stop()
// ends it for good.
import type { Logger } from 'pino';
import { shutdownRequested } from '../signals.js';
import type { ManagedChild } from './child.js';

export interface SupervisorOptions<T> {
  /** Names the node in logs ("BTC dev node"). */
  name: string;
  logger: Logger;
  spawn: () => ManagedChild;
  /** Resolves once a freshly spawned process serves; a rejection counts as a failed start. */
  ready: (child: ManagedChild) => Promise<T>;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** A process that lived this long resets the back-off. */
  stableMs?: number;
}

export interface SupervisedChild {
  /** The process running now (or the last one, while a restart waits). */
  current(): ManagedChild;
  restarts(): number;
  /** Stops the node for good; resolves once its process is gone. */
  stop(graceMs?: number): Promise<void>;
}

/** How a process ended, in words for the log. */
export function exitText(result: number | string): string {
  return typeof result === 'number' ? `exit code ${result}` : `signal ${result}`;
}

/** Spawns the node, waits until it serves, then keeps it alive. Rejects when the first start fails. */
export async function startSupervised<T>(
  options: SupervisorOptions<T>,
): Promise<{ child: SupervisedChild; ready: T }> {
  const { name, logger } = options;
  const minMs = options.minBackoffMs ?? 500;
  const maxMs = options.maxBackoffMs ?? 30_000;
  const stableMs = options.stableMs ?? 60_000;
  let child = options.spawn();
  let startedMs = Date.now();
  let stopping = false;
  let restarts = 0;
  let quickDeaths = 0;
  let timer: NodeJS.Timeout | undefined;

  const restart = async (): Promise<void> => {
    timer = undefined;
    if (stopping) return;
    child = options.spawn();
    startedMs = Date.now();
    restarts++;
    watch(child);
    try {
      await options.ready(child);
      logger.warn({ pid: child.proc.pid, restarts }, `${name} restarted`);
    } catch (err) {
      if (stopping) return;
      logger.error({ err, restarts }, `${name} did not come back; trying again`);
      await child.stop(5_000);
    }
  };
  const onExit = (dead: ManagedChild, result: number | string): void => {
    if (stopping || dead !== child) return;
    if (shutdownRequested()) {
      logger.info(
        { pid: dead.proc.pid },
        `${name} stopped (${exitText(result)}) while the pool stops; not restarted`,
      );
      return;
    }
    quickDeaths = Date.now() - startedMs < stableMs ? quickDeaths + 1 : 1;
    const inMs = Math.min(maxMs, minMs * 2 ** (quickDeaths - 1));
    logger.warn({ pid: dead.proc.pid, inMs, restarts }, `${name} died (${exitText(result)}); restarting`);
    timer = setTimeout(() => void restart(), inMs);
  };
  const watch = (watched: ManagedChild): void => {
    void watched.exited.then((result) => onExit(watched, result));
  };

  const stop = async (graceMs?: number): Promise<void> => {
    stopping = true;
    if (timer) clearTimeout(timer);
    await child.stop(graceMs);
  };
  let ready: T;
  try {
    ready = await options.ready(child);
  } catch (err) {
    await stop(5_000);
    throw err;
  }
  watch(child);
  return { child: { current: () => child, restarts: () => restarts, stop }, ready };
}
