import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * Scrypt proof of work off the main thread: a pool of worker threads (scrypt-worker.mjs, one per
 * core by default), each hashing batches of 80-byte headers four at a time with WebAssembly SIMD
 * (@manjam/protocol/scrypt-simd, about twice node:crypto's scrypt per core). Requests go to the
 * worker with the fewest outstanding; a lane's queued headers leave as one message per turn of the
 * event loop, and answers come back in order per worker. The threads start with the first header:
 * each holds its own V8 isolate and WebAssembly instance (about 10 MB), which a pool without
 * Scrypt miners does not need.
 */
const WORKER_FILE = new URL('./scrypt-worker.mjs', import.meta.url);

interface Pending {
  resolve: (hash: Buffer) => void;
  reject: (error: Error) => void;
}

interface Lane {
  worker: Worker;
  outstanding: number;
  /** Requests sent, by message seq: each message carries up to BATCH headers. */
  inflight: Map<number, Pending[]>;
  /** Headers waiting for the next send on this lane. */
  queued: { header: Buffer; pending: Pending }[];
}

export class PowPoolBusyError extends Error {}

/**
 * Scrypt headers handed to the pool at once per thread by the fair queue (fair-work.ts): enough
 * for batches that keep a thread busy between two turns of the event loop, few enough that an
 * honest share waits for at most about this many hashes per thread.
 */
export const SCRYPT_IN_FLIGHT_PER_THREAD = 8;

export class ScryptPool {
  private readonly lanes: Lane[] = [];
  private seq = 0;
  private closed = false;
  private flushScheduled = false;

  /** Threads the pool runs once started. */
  readonly size: number;

  constructor(
    size: number = availableParallelism(),
    private readonly maxOutstanding = 50_000,
  ) {
    this.size = Math.max(1, size);
  }

  /** How many threads are running (none before the first header). */
  get threads(): number {
    return this.lanes.length;
  }

  get outstanding(): number {
    return this.lanes.reduce((n, lane) => n + lane.outstanding, 0);
  }

  /** Scrypt hash (internal byte order) of an 80-byte header. */
  hash(header: Buffer): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error('scrypt pool is closed'));
    if (this.outstanding >= this.maxOutstanding)
      return Promise.reject(new PowPoolBusyError('share validation queue is full'));
    while (this.lanes.length < this.size) this.lanes.push(this.spawn());
    let lane = this.lanes[0] as Lane;
    for (const l of this.lanes) if (l.outstanding < lane.outstanding) lane = l;
    return new Promise<Buffer>((resolve, reject) => {
      lane.outstanding++;
      lane.queued.push({ header, pending: { resolve, reject } });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.send());
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.lanes.map((lane) => lane.worker.terminate()));
    for (const lane of this.lanes) this.failLane(lane, new Error('scrypt pool closed'));
  }

  /** Sends every lane's queued headers as one message (fewer thread hops under load). */
  private send(): void {
    this.flushScheduled = false;
    for (const lane of this.lanes) {
      if (lane.queued.length === 0) continue;
      const batch = lane.queued;
      lane.queued = [];
      const headers = new Uint8Array(80 * batch.length);
      batch.forEach((item, i) => headers.set(item.header, i * 80));
      const seq = this.seq++;
      lane.inflight.set(
        seq,
        batch.map((b) => b.pending),
      );
      lane.worker.postMessage({ seq, headers }, [headers.buffer]);
    }
  }

  private spawn(): Lane {
    const worker = new Worker(WORKER_FILE);
    const lane: Lane = { worker, outstanding: 0, inflight: new Map(), queued: [] };
    worker.on('message', (msg: { seq: number; hashes: Uint8Array }) => {
      const pendings = lane.inflight.get(msg.seq);
      if (!pendings) return;
      lane.inflight.delete(msg.seq);
      lane.outstanding -= pendings.length;
      const all = Buffer.from(msg.hashes.buffer, msg.hashes.byteOffset, msg.hashes.byteLength);
      pendings.forEach((p, i) => p.resolve(all.subarray(i * 32, i * 32 + 32)));
    });
    worker.on('error', (error) => {
      this.failLane(lane, error);
      if (!this.closed) {
        const index = this.lanes.indexOf(lane);
        if (index >= 0) this.lanes[index] = this.spawn();
      }
    });
    worker.unref();
    return lane;
  }

  private failLane(lane: Lane, error: Error): void {
    for (const pendings of lane.inflight.values()) for (const p of pendings) p.reject(error);
    for (const q of lane.queued) q.pending.reject(error);
    lane.inflight.clear();
    lane.queued = [];
    lane.outstanding = 0;
  }
}
