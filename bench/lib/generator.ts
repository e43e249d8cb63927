// The load generator: a few worker threads (lib/load-worker.ts) in this process, each owning an
// equal slice of the connections. Commands go to every thread; their answers are merged.
import { Worker } from 'node:worker_threads';
import type { RunResult, WorkerCommand, WorkerReply, WorkerSetup } from './messages.js';

export interface MergedRun extends Omit<RunResult, 'type'> {
  /** CPU time of the whole generator process (all threads) over the phase and its drain. */
  cpuUs: number;
  /** Wall time over which cpuUs was measured. */
  wallSeconds: number;
}

export class Generator {
  private constructor(private readonly workers: Worker[]) {}

  static start(threads: number, setup: WorkerSetup): Generator {
    // Node 20 does not carry tsx's loader into worker threads: the worker registers it itself.
    const tsx = import.meta.resolve('tsx/esm/api');
    const entry = new URL('./load-worker.ts', import.meta.url).href;
    const source = `import(${JSON.stringify(tsx)}).then((api) => api.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}));`;
    return new Generator(
      Array.from({ length: threads }, () => new Worker(source, { eval: true, workerData: setup })),
    );
  }

  private ask<T extends WorkerReply['type']>(
    commands: WorkerCommand[],
    expect: T,
  ): Promise<Extract<WorkerReply, { type: T }>[]> {
    return Promise.all(
      this.workers.map(
        (worker, i) =>
          new Promise<Extract<WorkerReply, { type: T }>>((resolve, reject) => {
            const onError = (error: Error) => reject(error);
            worker.once('error', onError);
            // A 'tip' question may be asked while a run is going: each ask takes only its own answer.
            const onMessage = (m: WorkerReply) => {
              if (m.type !== expect && m.type !== 'error') return;
              worker.off('message', onMessage);
              worker.off('error', onError);
              if (m.type === expect) resolve(m as Extract<WorkerReply, { type: T }>);
              else reject(new Error(m.type === 'error' ? m.message : `expected ${expect}`));
            };
            worker.on('message', onMessage);
            worker.postMessage(commands[i]);
          }),
      ),
    );
  }

  private split(total: number): number[] {
    const n = this.workers.length;
    return this.workers.map((_, i) => Math.floor(total / n) + (i < total % n ? 1 : 0));
  }

  async connect(total: number): Promise<{ ok: number; failed: number; firstError: string | undefined }> {
    const replies = await this.ask(
      this.split(total).map((count) => ({ type: 'connect', count })),
      'connected',
    );
    return {
      ok: replies.reduce((n, r) => n + r.ok, 0),
      failed: replies.reduce((n, r) => n + r.failed, 0),
      firstError: replies.find((r) => r.firstError !== undefined)?.firstError,
    };
  }

  async prepare(
    perConnection: number,
    unmined = false,
  ): Promise<{ shares: number; tried: number; seconds: number }> {
    const replies = await this.ask(
      this.workers.map(() => ({ type: 'prepare', perConnection, unmined })),
      'prepared',
    );
    return {
      shares: replies.reduce((n, r) => n + r.shares, 0),
      tried: replies.reduce((n, r) => n + r.tried, 0),
      seconds: Math.max(...replies.map((r) => r.seconds)),
    };
  }

  /** Max: every connection keeps `depth` in flight. Rate: `rate` shares/s in total. */
  async run(
    command:
      { mode: 'max'; seconds: number; depth: number } | { mode: 'rate'; seconds: number; rate: number },
  ): Promise<MergedRun> {
    const commands: WorkerCommand[] =
      command.mode === 'max'
        ? this.workers.map(() => ({ type: 'run', ...command }))
        : this.split(command.rate).map((rate) => ({
            type: 'run',
            mode: 'rate',
            seconds: command.seconds,
            rate,
          }));
    const cpu = process.cpuUsage();
    const started = performance.now();
    const replies = await this.ask(commands, 'ran');
    const used = process.cpuUsage(cpu);
    const wallSeconds = (performance.now() - started) / 1000;
    const rejected: Record<string, number> = {};
    for (const r of replies)
      for (const [code, n] of Object.entries(r.rejected)) rejected[code] = (rejected[code] ?? 0) + n;
    const latencies = new Float64Array(replies.reduce((n, r) => n + r.latencies.length, 0));
    let offset = 0;
    for (const r of replies) {
      latencies.set(r.latencies, offset);
      offset += r.latencies.length;
    }
    const sum = (pick: (r: RunResult) => number) => replies.reduce((n, r) => n + pick(r), 0);
    return {
      seconds: Math.max(...replies.map((r) => r.seconds)),
      sent: sum((r) => r.sent),
      acceptedInTime: sum((r) => r.acceptedInTime),
      accepted: sum((r) => r.accepted),
      rejected,
      unanswered: sum((r) => r.unanswered),
      starved: sum((r) => r.starved),
      latencies,
      cpuUs: used.user + used.system,
      wallSeconds,
    };
  }

  /** When each connection got its first clean job on `prevhash` (notify form), wall-clock ms; NaN: not yet. */
  async tipTimes(prevhash: string): Promise<number[]> {
    const replies = await this.ask(
      this.workers.map(() => ({ type: 'tip', prevhash })),
      'tip',
    );
    return replies.flatMap((r) => [...r.times]);
  }

  async close(): Promise<void> {
    await this.ask(
      this.workers.map(() => ({ type: 'close' })),
      'closed',
    );
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
