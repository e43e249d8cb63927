// RandomX hashing for the pool: a pool of worker threads over the native addon (addon.c), so a
// hash (tens of milliseconds in light mode) never runs on the event loop.
//
// Caches are per seed hash and shared by all threads of the process; the pool keeps the
// `keepSeeds` most recently used seeds (2: the current epoch's and the next one's, which the
// caller warms with `prepare` before the switch) and releases older ones on every thread.
//
// MEMORY ON DEMAND: the threads start with the first hash or prepare. With `idleReleaseMs`, a pool
// that nobody holds (`hold()`; the XMR port holds it for each logged-in miner) and nobody used for
// that long releases every seed and stops its threads (`releaseAll`): the caches (256 MiB each, in
// full mode a 2 GiB dataset each) and the threads' own memory go back to the system. The next hash
// or prepare starts them again and rebuilds its seed; a hash asked for while its seed is being
// built waits for it (the thread building it, or the addon's per-seed lock on another thread).
// Without `idleReleaseMs` the caches stay until `keepSeeds` pushes them out, or `close`.
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
  /**
   * Every seed is released and the threads stopped once the pool has been neither held nor used
   * for this long (see the top comment). Unset: the caches are kept.
   */
  idleReleaseMs?: number;
  /** Told the seeds (hex) an idle release let go (for the operator's log). */
  onIdleRelease?: (seeds: readonly string[]) => void;
}

/** What the pool is doing, for /metrics. */
export interface RandomXFigures {
  /** Hashes asked for and not answered yet: running, or waiting behind others or a seed being built. */
  queued: number;
  /** Hashes answered since the pool was made. */
  hashes: number;
  /** Seeds whose cache (and dataset) the pool keeps, built or being built. */
  seeds: number;
  /** Seeds whose cache (and dataset) is being built now. */
  building: number;
  /** Hashing threads running (0 while released). */
  threads: number;
  /** Holds not let go (the XMR port: logged-in miners). */
  holders: number;
}

interface Pending {
  resolve: (hash: Uint8Array) => void;
  reject: (error: Error) => void;
  /** The seed (hex) asked for. */
  seed: string;
  /** A hash (not a prepare). */
  hash: boolean;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Told to exit (releaseAll): it answers what it was asked before, then ends. */
  retired: boolean;
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
  /** Hashing threads while the pool runs (none before the first use and after a release). */
  readonly threads: number;
  readonly mode: RandomXMode;
  private readonly keepSeeds: number;
  private readonly datasetInitThreads: number;
  private readonly idleReleaseMs: number | undefined;
  private readonly onIdleRelease: ((seeds: readonly string[]) => void) | undefined;
  private readonly slots: Slot[] = [];
  /** Threads told to exit that have not ended yet. */
  private readonly retiring = new Set<Slot>();
  /** Live seeds (hex), least recently used first. */
  private readonly seeds: string[] = [];
  /** Live seeds some thread has answered for: their cache is built. */
  private readonly built = new Set<string>();
  private nextId = 1;
  private queued = 0;
  private hashes = 0;
  private holders = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Set when a thread cannot even start (the addon is not built): nothing will work. */
  private broken: Error | undefined;

  constructor(options: RandomXPoolOptions = {}) {
    this.threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
    this.mode = options.mode ?? 'light';
    this.keepSeeds = Math.max(1, Math.floor(options.keepSeeds ?? 2));
    this.datasetInitThreads = Math.max(1, Math.floor(options.datasetInitThreads ?? this.threads));
    this.idleReleaseMs = options.idleReleaseMs;
    this.onIdleRelease = options.onIdleRelease;
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

  /**
   * Keeps the caches while held: an idle release waits until every hold is let go (and then
   * `idleReleaseMs`). Returns the function that lets go (once).
   */
  hold(): () => void {
    if (this.closed) return () => undefined;
    this.holders++;
    this.stopIdleTimer();
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.holders--;
      this.armIdleTimer();
    };
  }

  /** Whether caches are wanted now: the pool is held, or it never releases them (no `idleReleaseMs`). */
  get wanted(): boolean {
    return this.holders > 0 || this.idleReleaseMs === undefined;
  }

  /**
   * Releases every seed and stops the threads now (each answers what it was asked before); the
   * next hash or prepare starts them again.
   */
  releaseAll(): void {
    this.stopIdleTimer();
    this.seeds.length = 0;
    this.built.clear();
    for (const slot of this.slots.splice(0)) {
      slot.retired = true;
      this.retiring.add(slot);
      slot.worker.postMessage({ type: 'exit' });
    }
  }

  figures(): RandomXFigures {
    const building = new Set<string>();
    for (const slot of [...this.slots, ...this.retiring])
      for (const pending of slot.pending.values())
        if (!this.built.has(pending.seed) && this.seeds.includes(pending.seed)) building.add(pending.seed);
    return {
      queued: this.queued,
      hashes: this.hashes,
      seeds: this.seeds.length,
      building: building.size,
      threads: this.slots.length,
      holders: this.holders,
    };
  }

  /** Stops every thread; pending hashes are rejected. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopIdleTimer();
    const slots = [...this.slots.splice(0), ...this.retiring];
    this.retiring.clear();
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
    const key = toHex(seed);
    this.touch(key);
    this.armIdleTimer();
    // Already built: a thread without a VM for it makes one at its first hash.
    if (type === 'prepare' && this.built.has(key)) return Promise.resolve(new Uint8Array(0));
    while (this.slots.length < this.threads) this.slots.push(this.spawn());
    let slot = this.slots[0] as Slot;
    for (const candidate of this.slots) if (candidate.pending.size < slot.pending.size) slot = candidate;
    const id = this.nextId++;
    if (type === 'hash') this.queued++;
    return new Promise<Uint8Array>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject, seed: key, hash: type === 'hash' });
      slot.worker.postMessage({ type, id, seed, blob });
    });
  }

  private touch(key: string): void {
    const index = this.seeds.indexOf(key);
    if (index >= 0) this.seeds.splice(index, 1);
    this.seeds.push(key);
    while (this.seeds.length > this.keepSeeds) {
      const oldKey = this.seeds.shift() as string;
      this.built.delete(oldKey);
      const old = Buffer.from(oldKey, 'hex');
      for (const slot of this.slots) slot.worker.postMessage({ type: 'drop', seed: old });
    }
  }

  private armIdleTimer(): void {
    if (this.idleReleaseMs === undefined || this.holders > 0 || this.closed) return;
    this.stopIdleTimer();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.holders > 0 || this.closed) return;
      const seeds = this.liveSeeds();
      this.releaseAll();
      this.onIdleRelease?.(seeds);
    }, this.idleReleaseMs);
    this.idleTimer.unref();
  }

  private stopIdleTimer(): void {
    if (this.idleTimer === undefined) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** A thread answered `pending`. */
  private settle(pending: Pending, reply: Reply): void {
    if (pending.hash) this.queued--;
    if (reply.error !== undefined) return pending.reject(new Error(`RandomX: ${reply.error}`));
    if (pending.hash) this.hashes++;
    // Its cache exists now (a seed released meanwhile is not counted again).
    if (this.seeds.includes(pending.seed)) this.built.add(pending.seed);
    pending.resolve(reply.hash ?? new Uint8Array(0));
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_FILE, {
      workerData: { full: this.mode === 'full', initThreads: this.datasetInitThreads },
    });
    const slot: Slot = { worker, pending: new Map(), retired: false };
    let loaded = false;
    worker.on('message', (message: unknown) => {
      if (typeof message === 'object' && message !== null && 'ready' in message) loaded = true;
      if (!isReply(message)) return;
      const pending = slot.pending.get(message.id);
      if (!pending) return;
      slot.pending.delete(message.id);
      this.settle(pending, message);
    });
    let replaced = false;
    const replace = (error: Error): void => {
      this.failAll(slot, error);
      if (slot.retired) {
        this.retiring.delete(slot);
        return;
      }
      if (this.closed || replaced) return;
      replaced = true;
      if (!loaded) {
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
    for (const pending of slot.pending.values()) {
      if (pending.hash) this.queued--;
      pending.reject(error);
    }
    slot.pending.clear();
  }
}
