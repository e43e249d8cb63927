// The new-tip phase's handle on the fake node process (lib/fake-node-process.ts, forked with tsx).
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Mined } from './fake-node.js';
import type { FakeNodeMessage, FakeNodeRequest } from './fake-node-process.js';

export class FakeNodeHandle {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  get pid(): number {
    return this.child.pid ?? 0;
  }

  static async start(): Promise<FakeNodeHandle> {
    const script = fileURLToPath(new URL('./fake-node-process.ts', import.meta.url));
    const child = fork(script, [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.once('message', (m: FakeNodeMessage) =>
        m.type === 'ready'
          ? resolve(m.url)
          : reject(new Error(m.type === 'error' ? m.message : 'unexpected message')),
      );
      child.once('exit', (code) => reject(new Error(`fake node process exited with ${code}`)));
    });
    return new FakeNodeHandle(child, url);
  }

  /** The -blocknotify command (with %s) the node runs on every new tip. */
  blocknotify(command: string): void {
    this.child.send({ type: 'blocknotify', command } satisfies FakeNodeRequest);
  }

  /** A new block; resolves once the node has moved its tip, run blocknotify and answered its longpolls. */
  mine(): Promise<Mined> {
    return new Promise((resolve, reject) => {
      const onExit = () => reject(new Error('fake node process exited'));
      const onMessage = (m: FakeNodeMessage) => {
        if (m.type !== 'mined') return;
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
        resolve(m);
      };
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
      this.child.send({ type: 'mine' } satisfies FakeNodeRequest);
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ type: 'stop' } satisfies FakeNodeRequest);
    const kill = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(kill);
  }
}
