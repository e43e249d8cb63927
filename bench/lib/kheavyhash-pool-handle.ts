// The kheavyhash phase's handle on its pool process (lib/kheavyhash-pool.ts, forked with tsx).
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nextMessage } from './child-message.js';
import type { BenchDatabaseKind } from './database.js';
import type { KheavyhashPoolMessage, KheavyhashPoolRequest, KheavyhashPoolUsage } from './kheavyhash-pool.js';
import { pinProcess } from './pool-handle.js';
import { poolProcessEnv } from './pool-env.js';

const NAME = 'kHeavyHash pool process';

export class KheavyhashPoolHandle {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  get pid(): number {
    return this.child.pid ?? 0;
  }

  /**
   * Forks the pool; `core`: run it on that core only (taskset); `profileDir`: write a V8 CPU
   * profile of the pool process there (node --cpu-prof).
   */
  static async start(
    db: BenchDatabaseKind,
    core: number | undefined,
    profileDir?: string,
  ): Promise<KheavyhashPoolHandle> {
    const script = fileURLToPath(new URL('./kheavyhash-pool.ts', import.meta.url));
    const profile = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
    const child = fork(script, [db], {
      execArgv: ['--import', 'tsx', ...profile],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: poolProcessEnv(),
    });
    if (core !== undefined && child.pid !== undefined) pinProcess(child.pid, core);
    const ready = await nextMessage<KheavyhashPoolMessage, 'ready'>(child, 'ready', NAME);
    return new KheavyhashPoolHandle(child, ready.port);
  }

  usage(persisted = false): Promise<KheavyhashPoolUsage> {
    return this.ask({ type: 'usage', persisted }, 'usage');
  }

  /** Raw kHeavyHash in the pool's own process (idle) for `seconds`. */
  raw(seconds: number): Promise<{ perCpuSecond: number; perSecond: number }> {
    return this.ask({ type: 'raw', seconds }, 'raw');
  }

  async setRate(perSecond: number): Promise<void> {
    await this.ask({ type: 'rate', perSecond }, 'rate');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ type: 'stop' } satisfies KheavyhashPoolRequest);
    const kill = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(kill);
  }

  private ask<T extends KheavyhashPoolMessage['type']>(
    request: KheavyhashPoolRequest,
    expect: T,
  ): Promise<Extract<KheavyhashPoolMessage, { type: T }>> {
    const answer = nextMessage<KheavyhashPoolMessage, T>(this.child, expect, NAME);
    this.child.send(request);
    return answer;
  }
}
