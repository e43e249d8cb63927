// What the cores can hash with RandomX (light mode), the yardstick of the randomx phase: the
// project's RandomXPool with the thread count the pool gets, hashing distinct blobs, in a process
// of its own (lib/randomx-hasher.ts) pinned where the pool is pinned. It stays up (its cache
// built) so the phase can measure in slices between the pool's windows: the machine is shared,
// and the two then see the same load.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nextMessage } from './child-message.js';
import { pinProcess } from './pool-handle.js';
import { splitThreadCpu, threadCpuUs } from './proc-cpu.js';
import type { HasherMessage, HasherRequest } from './randomx-hasher.js';

export interface RandomXCapacity {
  threads: number;
  /** Hashes done within the slices, and in all (those running at a slice's end included). */
  inTime: number;
  hashes: number;
  seconds: number;
  /** inTime / seconds. */
  perSecond: number;
  /** Hashes per CPU-second of the hashing process (fair on a loaded machine). */
  perCpuSecond: number;
  /** The hashing process's CPU as a percentage of one core. */
  cpuPercent: number;
  /** CPU time of its RandomX threads alone (its `threads` busiest besides main, from /proc), microseconds. */
  hashThreadsCpuUs: number;
}

type Slice = Pick<Extract<HasherMessage, { type: 'hashed' }>, 'inTime' | 'hashes' | 'seconds' | 'cpuUs'> & {
  hashThreadsCpuUs: number;
};

export class RandomXCapacityProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly threads: number,
    /** Time to build the seed's cache and every thread's VM. */
    readonly prepareMs: number,
  ) {}

  static async start(o: {
    threads: number;
    /** Pin the hashing process to this core (taskset), as the pool is pinned. */
    core: number | undefined;
  }): Promise<RandomXCapacityProcess> {
    const script = fileURLToPath(new URL('./randomx-hasher.ts', import.meta.url));
    const child = fork(script, [String(o.threads)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // Before it starts its RandomX threads (they inherit the affinity); -a covers any already there.
    if (o.core !== undefined && child.pid !== undefined) pinProcess(child.pid, o.core);
    const ready = await nextMessage<HasherMessage, 'ready'>(child, 'ready', 'RandomX capacity process');
    return new RandomXCapacityProcess(child, ready.threads, ready.prepareMs);
  }

  /** Hashes for `seconds`. */
  async measure(seconds: number): Promise<RandomXCapacity> {
    const pid = this.child.pid ?? 0;
    const before = threadCpuUs(pid);
    const answer = nextMessage<HasherMessage, 'hashed'>(this.child, 'hashed', 'RandomX capacity process');
    this.child.send({ type: 'hash', seconds } satisfies HasherRequest);
    const hashed = await answer;
    const hashThreadsCpuUs = splitThreadCpu(pid, before, threadCpuUs(pid), this.threads).busiest;
    return capacityOf(this.threads, [{ ...hashed, hashThreadsCpuUs }]);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ type: 'stop' } satisfies HasherRequest);
    await exited;
  }
}

/** Slices as one measurement: hashes over their time and over their CPU time. */
export function sumCapacity(slices: RandomXCapacity[]): RandomXCapacity {
  return capacityOf(
    slices[0]?.threads ?? 0,
    slices.map((s) => ({
      inTime: s.inTime,
      hashes: s.hashes,
      seconds: s.seconds,
      cpuUs: (s.hashes / s.perCpuSecond) * 1e6,
      hashThreadsCpuUs: s.hashThreadsCpuUs,
    })),
  );
}

function capacityOf(threads: number, slices: Slice[]): RandomXCapacity {
  const hashes = slices.reduce((n, s) => n + s.hashes, 0);
  const inTime = slices.reduce((n, s) => n + s.inTime, 0);
  const seconds = slices.reduce((n, s) => n + s.seconds, 0);
  const cpuSeconds = slices.reduce((n, s) => n + s.cpuUs, 0) / 1e6;
  return {
    threads,
    inTime,
    hashes,
    seconds,
    perSecond: inTime / seconds,
    perCpuSecond: hashes / cpuSeconds,
    cpuPercent: (cpuSeconds / seconds) * 100,
    hashThreadsCpuUs: slices.reduce((n, s) => n + s.hashThreadsCpuUs, 0),
  };
}
