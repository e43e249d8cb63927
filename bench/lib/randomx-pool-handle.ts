// The randomx phase's handle on its pool process (lib/randomx-pool.ts, forked with tsx).
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchDatabaseKind } from './database.js';
import { nextMessage } from './child-message.js';
import { pinProcess } from './pool-handle.js';
import type { RandomXPoolMessage, RandomXPoolRequest, RandomXPoolUsage } from './randomx-pool.js';
import { poolProcessEnv } from './pool-env.js';

type Ready = Extract<RandomXPoolMessage, { type: 'ready' }>;
type Epoch = Extract<RandomXPoolMessage, { type: 'epoch' }>;

export class RandomXPoolHandle {
  private constructor(
    private readonly child: ChildProcess,
    readonly ready: Ready,
  ) {}

  get pid(): number {
    return this.child.pid ?? 0;
  }

  static async start(o: {
    db: BenchDatabaseKind;
    daemonUrl: string;
    threads: number;
    /** Run the pool process (all its threads) on this core only (taskset). */
    core: number | undefined;
  }): Promise<RandomXPoolHandle> {
    const script = fileURLToPath(new URL('./randomx-pool.ts', import.meta.url));
    const child = fork(script, [o.db, o.daemonUrl, String(o.threads)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: poolProcessEnv(),
    });
    // Before it starts its RandomX threads: they inherit the affinity of the thread that creates them.
    if (o.core !== undefined && child.pid !== undefined) pinProcess(child.pid, o.core);
    return new RandomXPoolHandle(
      child,
      await nextMessage<RandomXPoolMessage, 'ready'>(child, 'ready', 'RandomX pool process'),
    );
  }

  usage(persisted = false): Promise<RandomXPoolUsage> {
    return this.ask({ type: 'usage', persisted }, 'usage');
  }

  /** Once the fake node announced `nextSeed`: the pool's RSS with that seed's cache ready. */
  epoch(nextSeed: string): Promise<Epoch> {
    return this.ask({ type: 'epoch', nextSeed }, 'epoch');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ type: 'stop' } satisfies RandomXPoolRequest);
    const kill = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(kill);
  }

  private ask<T extends RandomXPoolMessage['type']>(
    request: RandomXPoolRequest,
    expect: T,
  ): Promise<Extract<RandomXPoolMessage, { type: T }>> {
    const answer = nextMessage<RandomXPoolMessage, T>(this.child, expect, 'RandomX pool process');
    this.child.send(request);
    return answer;
  }
}
