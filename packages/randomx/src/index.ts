// RandomX hashing for the pool: a pool of worker threads over the native addon (addon.c), so a
// hash (tens of milliseconds in light mode) never runs on the event loop.
//
// Caches are per seed hash and shared by all threads of the process; the pool keeps the
// `keepSeeds` most recently used seeds (2: the current epoch's and the next one's, which the
// caller warms with `prepare` before the switch) and releases older ones on every thread.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export const RANDOMX_MODES = ['light', 'full'] as const;
export type RandomXMode = (typeof RANDOMX_MODES)[number];

/** Bytes of a RandomX hash. */
export const RANDOMX_HASH_BYTES = 32;

/**
 * The hashing thread's file, found through the package's own export (not beside this module):
 * the server bundle compiles this module into apps/server/dist, while the worker and the addon
 * it loads (../build/Release) stay in the package.
 */
const WORKER_FILE = createRequire(import.meta.url).resolve('@manjam/randomx/worker');

/** Longest seed the addon takes (Monero's seed hashes are 32 bytes). */
const MAX_SEED_BYTES = 64;

export interface RandomXPoolOptions {
  /** Hashing threads (default: the machine's available parallelism). */
  threads?: number;
  /** 'light' (256 MiB cache per seed, default) or 'full' (plus a 2 GiB dataset per seed, ~8x faster). */
  mode?: RandomXMode;
  /** Seeds whose caches stay alive (default 2: current and next epoch). */
  keepSeeds?: number;
  /** Threads that build a full-mode dataset (default: `threads`). */
  datasetInitThreads?: number;
}

interface Pending {
  resolve: (hash: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

interface Reply {
  id: number;
  hash?: Uint8Array;
  error?: string;
}

function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'number';
}

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

export class RandomXPool {
  readonly threads: number;
  readonly mode: RandomXMode;
  private readonly keepSeeds: number;
  private readonly datasetInitThreads: number;
  private readonly slots: Slot[] = [];
  /** Live seeds (hex), least recently used first. */
  private readonly seeds: string[] = [];
  private nextId = 1;
  private closed = false;
  /** Set when a thread cannot even start (the addon is not built): nothing will work. */
  private broken: Error | undefined;

  constructor(options: RandomXPoolOptions = {}) {
    this.threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
    this.mode = options.mode ?? 'light';
    this.keepSeeds = Math.max(1, Math.floor(options.keepSeeds ?? 2));
    this.datasetInitThreads = Math.max(1, Math.floor(options.datasetInitThreads ?? this.threads));
    for (let i = 0; i < this.threads; i++) this.slots.push(this.spawn());
  }

  /** The RandomX hash (32 bytes) of `blob` under the key `seed` (Monero: the block's seed hash). */
  hash(seed: Uint8Array, blob: Uint8Array): Promise<Uint8Array> {
    return this.send('hash', seed, blob);
  }

  /** Builds the cache (and in full mode the dataset) for `seed` now, so the first share is not slow. */
  async prepare(seed: Uint8Array): Promise<void> {
    await this.send('prepare', seed, undefined);
  }

  /** The seeds (hex) whose caches the pool keeps, least recently used first. */
  liveSeeds(): readonly string[] {
    return [...this.seeds];
  }

  /** Stops every thread; pending hashes are rejected. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const slots = this.slots.splice(0);
    for (const slot of slots) this.failAll(slot, new Error('the RandomX pool was closed'));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private send(
    type: 'hash' | 'prepare',
    seed: Uint8Array,
    blob: Uint8Array | undefined,
  ): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new Error('the RandomX pool was closed'));
    if (this.broken) return Promise.reject(this.broken);
    if (seed.length < 1 || seed.length > MAX_SEED_BYTES) {
      return Promise.reject(new Error('a RandomX seed is 1 to 64 bytes'));
    }
    this.touch(seed);
    let slot = this.slots[0] as Slot;
    for (const candidate of this.slots) if (candidate.pending.size < slot.pending.size) slot = candidate;
    const id = this.nextId++;
    return new Promise<Uint8Array>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ type, id, seed, blob });
    });
  }

  private touch(seed: Uint8Array): void {
    const key = toHex(seed);
    const index = this.seeds.indexOf(key);
    if (index >= 0) this.seeds.splice(index, 1);
    this.seeds.push(key);
    while (this.seeds.length > this.keepSeeds) {
      const old = Buffer.from(this.seeds.shift() as string, 'hex');
      for (const slot of this.slots) slot.worker.postMessage({ type: 'drop', seed: old });
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_FILE, {
      workerData: { full: this.mode === 'full', initThreads: this.datasetInitThreads },
    });
    const slot: Slot = { worker, pending: new Map() };
    let ready = false;
    worker.on('message', (message: unknown) => {
      if (typeof message === 'object' && message !== null && 'ready' in message) ready = true;
      if (!isReply(message)) return;
      const pending = slot.pending.get(message.id);
      if (!pending) return;
      slot.pending.delete(message.id);
      if (message.error !== undefined) pending.reject(new Error(`RandomX: ${message.error}`));
      else pending.resolve(message.hash ?? new Uint8Array(0));
    });
    let replaced = false;
    const replace = (error: Error): void => {
      this.failAll(slot, error);
      if (this.closed || replaced) return;
      replaced = true;
      if (!ready) {
        // It died before loading the addon: a replacement would die the same way.
        this.broken = new Error(`RandomX threads cannot start: ${error.message}`);
        for (const other of this.slots) this.failAll(other, this.broken);
        return;
      }
      // The caches it held are rebuilt on demand by its replacement.
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots[index] = this.spawn();
    };
    worker.on('error', (error) => replace(error));
    worker.on('exit', (code) => {
      if (!this.closed) replace(new Error(`a RandomX thread exited (code ${code})`));
    });
    return slot;
  }

  private failAll(slot: Slot, error: Error): void {
    for (const pending of slot.pending.values()) pending.reject(error);
    slot.pending.clear();
  }
}
