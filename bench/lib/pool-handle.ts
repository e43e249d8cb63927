// The orchestrator's handle on the pool process (lib/pool-process.ts, forked with tsx).
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BitcoinFamilyCoin } from '@manjam/protocol';
import type { BenchDatabaseKind } from './database.js';
import type { ServerMessage, ServerReady, ServerRequest, ServerUsage } from './messages.js';
import { processCpuUs } from './proc-cpu.js';
import { poolProcessEnv } from './pool-env.js';

export interface PoolStartOptions {
  /** Write a V8 CPU profile of the pool process there (node --cpu-prof). */
  profileDir?: string;
  /** The application_name of the pool's PostgreSQL connections (its backends' CPU is read by it). */
  applicationName?: string;
  /** Run the pool process (all its threads) on this core only (taskset). */
  core?: number;
}

export class PoolHandle {
  private constructor(
    private readonly child: ChildProcess,
    readonly ports: Record<BitcoinFamilyCoin, number>,
    readonly rejectPort: number,
    readonly schema: string | undefined,
  ) {}

  get pid(): number {
    return this.child.pid ?? 0;
  }

  static async start(db: BenchDatabaseKind, options: PoolStartOptions = {}): Promise<PoolHandle> {
    const script = fileURLToPath(new URL('./pool-process.ts', import.meta.url));
    const { profileDir, applicationName, core } = options;
    const profile = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
    const child = fork(script, [db], {
      execArgv: ['--import', 'tsx', '--expose-gc', ...profile],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: poolProcessEnv(applicationName === undefined ? {} : { PGAPPNAME: applicationName }),
    });
    // Before it starts its worker threads: they inherit the affinity of the thread that creates them.
    if (core !== undefined && child.pid !== undefined) pinProcess(child.pid, core);
    const ready = await new Promise<ServerReady>((resolve, reject) => {
      child.once('message', (m: ServerMessage) =>
        m.type === 'ready'
          ? resolve(m)
          : reject(new Error(m.type === 'error' ? m.message : 'unexpected message')),
      );
      child.once('exit', (code) => reject(new Error(`pool process exited with ${code}`)));
    });
    return new PoolHandle(child, ready.ports, ready.rejectPort, ready.schema);
  }

  /** CPU time, RSS and counters; `gc` collects garbage first (for memory figures). */
  /** `resetLoop`: event-loop and GC figures start over after this answer. */
  usage(options: { gc?: boolean; persisted?: boolean; resetLoop?: boolean } = {}): Promise<ServerUsage> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: ServerMessage) => {
        this.child.off('exit', onExit);
        // CPU from outside (/proc/<pid>/stat, all threads), as for any other pool process.
        if (m.type === 'usage') resolve({ ...m, cpuUs: processCpuUs(this.pid) ?? m.cpuUs });
        else reject(new Error(m.type === 'error' ? m.message : 'unexpected message'));
      };
      const onExit = (code: number | null) => reject(new Error(`pool process exited with ${code}`));
      this.child.once('message', onMessage);
      this.child.once('exit', onExit);
      this.child.send({
        type: 'usage',
        gc: options.gc ?? false,
        persisted: options.persisted ?? false,
        resetLoop: options.resetLoop ?? false,
      } satisfies ServerRequest);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ type: 'stop' } satisfies ServerRequest);
    const kill = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(kill);
  }
}

/** Pins every thread of a process (and the threads it starts later) to one core. */
export function pinProcess(pid: number, core: number): void {
  execFileSync('taskset', ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
}
