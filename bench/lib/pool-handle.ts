// The orchestrator's handle on the pool process (lib/pool-process.ts, forked with tsx).
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CoinId } from '../../apps/server/src/config/index.js';
import type { BenchDatabaseKind } from './database.js';
import type { ServerMessage, ServerRequest, ServerUsage } from './messages.js';

export class PoolHandle {
  private constructor(
    private readonly child: ChildProcess,
    readonly ports: Record<CoinId, number>,
  ) {}

  get pid(): number {
    return this.child.pid ?? 0;
  }

  /** `profileDir`: write a V8 CPU profile of the pool process there (node --cpu-prof). */
  static async start(db: BenchDatabaseKind, profileDir?: string): Promise<PoolHandle> {
    const script = fileURLToPath(new URL('./pool-process.ts', import.meta.url));
    const profile = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
    const child = fork(script, [db], {
      execArgv: ['--import', 'tsx', '--expose-gc', ...profile],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ports = await new Promise<Record<CoinId, number>>((resolve, reject) => {
      child.once('message', (m: ServerMessage) =>
        m.type === 'ready'
          ? resolve(m.ports)
          : reject(new Error(m.type === 'error' ? m.message : 'unexpected message')),
      );
      child.once('exit', (code) => reject(new Error(`pool process exited with ${code}`)));
    });
    return new PoolHandle(child, ports);
  }

  /** CPU time, RSS and counters; `gc` collects garbage first (for memory figures). */
  /** `resetLoop`: event-loop and GC figures start over after this answer. */
  usage(options: { gc?: boolean; persisted?: boolean; resetLoop?: boolean } = {}): Promise<ServerUsage> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: ServerMessage) => {
        this.child.off('exit', onExit);
        if (m.type === 'usage') resolve(m);
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
