// Runs a service in exactly one process of a deployment: the holder of a PostgreSQL advisory lock
// (on a connection of its own, held for the process lifetime) runs it; any other process stands
// by, retries every few seconds and takes over once the holder's session ends (its process died,
// or its connection did). A leader that loses its session stops the service and stands by again.
// On embedded PGlite (one process by design) the lock is trivially held.
import type { Database, DedicatedConnection } from '../db/types.js';
import { LeaderLocksRepository } from '../db/repositories/leader-locks.js';
import type { Logger } from '../logger.js';

export interface LeaderOptions {
  db: Database;
  logger: Logger;
  /** The lock's name, e.g. "accounting". */
  name: string;
  /** How often a standby retries the lock (default 2 s). */
  retryMs?: number;
  /** How often the leader checks that its session still holds the lock (default 5 s). */
  checkMs?: number;
}

export interface LeaderRunner<T> {
  /** Settles after the first attempt: 'leading' (the service started) or 'standby'; rejects when the first start failed. */
  readonly ready: Promise<'leading' | 'standby'>;
  /** The running service while this process leads. */
  current(): T | undefined;
  /** Stops the service (if leading) and releases the lock. */
  stop(): Promise<void>;
}

interface Holding {
  lost: Promise<string>;
  release(): Promise<void>;
}

export function runAsLeader<T extends { stop(): Promise<void> }>(
  options: LeaderOptions,
  start: () => Promise<T>,
): LeaderRunner<T> {
  const retryMs = options.retryMs ?? 2_000;
  const logger = options.logger.child({ module: 'leader', lock: options.name });
  let service: T | undefined;
  let stopped = false;
  let wake: () => void = () => undefined;
  const stopping = new Promise<string>((resolve) => (wake = () => resolve('stopping')));
  const pause = (ms: number) =>
    Promise.race([new Promise((resolve) => setTimeout(resolve, ms).unref()), stopping]);
  let settle: (state: 'leading' | 'standby') => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const ready = new Promise<'leading' | 'standby'>(
    (resolve, reject) => ((settle = resolve), (fail = reject)),
  );
  ready.catch(() => undefined);

  const acquire = () =>
    acquireLock(options, logger, { onStandby: () => settle('standby'), pause, isStopped: () => stopped });
  const lead = async (holding: Holding): Promise<void> => {
    try {
      service = await start();
      settle('leading');
    } catch (error) {
      fail(error);
      logger.error({ err: error }, `${options.name} failed to start; retrying`);
      await holding.release();
      await pause(retryMs);
      return;
    }
    const reason = await Promise.race([holding.lost, stopping]);
    const running = service;
    service = undefined;
    await running
      .stop()
      .catch((err: unknown) => logger.error({ err }, `error while stopping ${options.name}`));
    await holding.release();
    if (!stopped)
      logger.error(
        { reason },
        `lost the ${options.name} lock (database session ended); ${options.name} stopped, standing by`,
      );
  };
  const loop = (async () => {
    while (!stopped) {
      const holding = await acquire();
      if (!holding) break;
      await lead(holding);
    }
  })();
  return {
    ready,
    current: () => service,
    async stop() {
      stopped = true;
      wake();
      await loop;
    },
  };
}

interface AcquireHooks {
  onStandby(): void;
  pause(ms: number): Promise<unknown>;
  isStopped(): boolean;
}

/** Waits until this process holds the lock; undefined when stopped first. */
async function acquireLock(
  options: LeaderOptions,
  logger: Logger,
  hooks: AcquireHooks,
): Promise<Holding | undefined> {
  const { db, name } = options;
  if (!db.dedicated) return { lost: new Promise<string>(() => undefined), release: () => Promise.resolve() };
  const retryMs = options.retryMs ?? 2_000;
  let announced = false;
  let session: DedicatedConnection | undefined;
  while (!hooks.isStopped()) {
    try {
      session ??= await db.dedicated();
      if (await new LeaderLocksRepository(session).tryAcquire(name)) {
        logger.info(announced ? `took over the ${name} lock; ${name} starts` : `holding the ${name} lock`);
        return holdLock(session, name, options.checkMs ?? 5_000);
      }
      if (!announced) logger.info(`another ${name} process holds the lock; standing by`);
      announced = true;
      hooks.onStandby();
    } catch (error) {
      logger.warn({ err: error }, `cannot reach the database for the ${name} lock; retrying`);
      await session?.release().catch(() => undefined);
      session = undefined;
    }
    await hooks.pause(retryMs);
  }
  await session?.release().catch(() => undefined);
  return undefined;
}

/** Watches the held lock: `lost` resolves when the session ends or stops answering. */
function holdLock(session: DedicatedConnection, name: string, checkMs: number): Holding {
  const locks = new LeaderLocksRepository(session);
  let timer: NodeJS.Timeout | undefined;
  const lost = new Promise<string>((resolve) => {
    void session.lost.then((error) => resolve(error.message));
    const check = (): void => {
      const late = new Promise<boolean>((settle) => setTimeout(() => settle(false), checkMs).unref());
      void Promise.race([locks.holds(name), late])
        .catch(() => false)
        .then((held) =>
          held ? (timer = setTimeout(check, checkMs)) : resolve('the session no longer holds the lock'),
        );
    };
    timer = setTimeout(check, checkMs);
  });
  return {
    lost,
    async release() {
      clearTimeout(timer);
      await session.release().catch(() => undefined);
    },
  };
}
