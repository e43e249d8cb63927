// The kheavyhash phase's handle on the floor server (lib/kheavyhash-floor.ts, forked with tsx).
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nextMessage } from './child-message.js';
import type { KheavyhashFloorMessage } from './kheavyhash-floor.js';
import { pinProcess } from './pool-handle.js';

const NAME = 'kHeavyHash floor process';

export class KheavyhashFloorHandle {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  static async start(core: number | undefined): Promise<KheavyhashFloorHandle> {
    const script = fileURLToPath(new URL('./kheavyhash-floor.ts', import.meta.url));
    const child = fork(script, [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    if (core !== undefined && child.pid !== undefined) pinProcess(child.pid, core);
    const ready = await nextMessage<KheavyhashFloorMessage, 'ready'>(child, 'ready', NAME);
    return new KheavyhashFloorHandle(child, ready.port);
  }

  /** The floor server's CPU-microseconds and shares answered so far. */
  usage(): Promise<{ cpuUs: number; accepted: number }> {
    const answer = nextMessage<KheavyhashFloorMessage, 'usage'>(this.child, 'usage', NAME);
    this.child.send({ type: 'usage' });
    return answer;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.disconnect();
    await exited;
  }
}
