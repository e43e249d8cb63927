// The Noise handshakes of every Stratum V2 port, off the event loop and bounded. Act one's
// ElligatorSwift decoding and the two ECDHs cost a few milliseconds of CPU each, and 64 random
// bytes are all an anonymous peer spends to ask for them, so:
// - they run in a small pool of worker threads (handshake-worker.ts), never on the thread that
//   answers miners;
// - each address may start `perAddress.perSecond` handshakes a second (a burst of
//   `perAddress.burst`), the whole pool `perSecond` (burst: the same), and at most `maxPending`
//   wait or run at once; past any of them the new connection is closed before any work;
// - a handshake whose connection closed while it waited is dropped before it is computed.
// A flood therefore slows or refuses new V2 connections only: V1, Kaspa, HTTP and the V2 miners
// already connected keep the event loop.
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { NoiseSessionKeys, ResponderIdentity } from '@manjam/protocol/sv2';

/** What the main thread sends a handshake thread. */
export interface HandshakeRequest {
  id: number;
  actOne: Uint8Array;
  identity: ResponderIdentity;
}

/** What a handshake thread answers. */
export type HandshakeAnswer =
  | { id: number; ok: true; reply: Uint8Array; keys: NoiseSessionKeys }
  | { id: number; ok: false; error: string };

export type HandshakeOutcome =
  | { kind: 'answered'; reply: Uint8Array; keys: NoiseSessionKeys }
  /** act one was refused by the Noise code (its reason) */
  | { kind: 'refused'; error: string }
  /** not computed: the address or the pool is over its rate, or the queue is full */
  | { kind: 'shed'; reason: 'address-rate' | 'pool-rate' | 'busy' }
  /** not computed: the connection closed while it waited */
  | { kind: 'dropped' };

export interface HandshakeLimits {
  /** Handshake threads (started when the first V2 port opens, or with the first handshake). */
  threads: number;
  /** Handshakes one address may start a second, and its burst. */
  perAddress: { perSecond: number; burst: number };
  /** Handshakes the whole pool starts a second (its burst is the same number). */
  perSecond: number;
  /** Handshakes waiting or running at once. */
  maxPending: number;
  /** Threads stop after this long without a handshake while no V2 port holds the pool. */
  idleMs: number;
}

/**
 * Defaults: one thread beside the event loop (two on machines with four cores or more); an
 * address may reconnect 20 miners at once and 5 a second after; 100 handshakes a second for the
 * pool (about half a core) with 64 waiting at most (a wait of a fraction of a second).
 */
export const HANDSHAKE_LIMITS: HandshakeLimits = {
  threads: availableParallelism() >= 4 ? 2 : 1,
  perAddress: { perSecond: 5, burst: 20 },
  perSecond: 100,
  maxPending: 64,
  idleMs: 30_000,
};

/** Handshakes sent to one thread at a time: the next is ready when one ends, few wait there. */
const PER_THREAD = 2;

/** A token bucket: `take()` spends one token if one is there. */
class Bucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  take(now: number): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Full again: nothing to remember about its address. */
  full(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.burst;
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
  }
}

interface Waiting {
  actOne: Uint8Array;
  identity: ResponderIdentity;
  live: () => boolean;
  resolve: (outcome: HandshakeOutcome) => void;
}

interface Lane {
  worker: Worker;
  running: Map<number, Waiting>;
  /** Resolves once the thread has loaded (or failed). */
  ready: Promise<void>;
}

/**
 * The handshake thread: the bundle's handshake-worker.js beside this file; from the TypeScript
 * sources (tsx, vitest) a thread that loads handshake-worker.ts through tsx's loader.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./handshake-worker.js', import.meta.url));
  // tsx's ESM API (tsImport), beside the CommonJS file `require.resolve` names.
  const api = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  );
  const file = new URL('./handshake-worker.ts', import.meta.url).href;
  const source = `import(${JSON.stringify(api.href)}).then((tsx) => tsx.tsImport(${JSON.stringify(file)}, ${JSON.stringify(file)}));`;
  return new Worker(source, { eval: true });
}

export class Sv2HandshakePool {
  private readonly lanes: Lane[] = [];
  private readonly queue: Waiting[] = [];
  private readonly addresses = new Map<string, Bucket>();
  private readonly pool: Bucket;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private lastPruneMs = 0;
  /** V2 ports open on this pool (retain/release). */
  private holders = 0;
  /** Handshakes answered, refused by Noise, shed and dropped since start. */
  readonly counts = { answered: 0, refused: 0, shed: 0, dropped: 0 };

  constructor(readonly limits: HandshakeLimits = HANDSHAKE_LIMITS) {
    this.pool = new Bucket(limits.perSecond, limits.perSecond, Date.now());
  }

  /** Handshakes waiting or running. */
  get pending(): number {
    let n = this.queue.length;
    for (const lane of this.lanes) n += lane.running.size;
    return n;
  }

  /** Threads running now. */
  get threads(): number {
    return this.lanes.length;
  }

  /**
   * Act two and the session's keys for `actOne` from `ip`, computed on a handshake thread; or
   * why not. `live()` is asked right before the work starts: false drops it.
   */
  handshake(
    ip: string,
    actOne: Uint8Array,
    identity: ResponderIdentity,
    live: () => boolean,
  ): Promise<HandshakeOutcome> {
    const now = Date.now();
    this.prune(now);
    const shed = this.admit(ip, now);
    if (shed) {
      this.counts.shed++;
      return Promise.resolve({ kind: 'shed', reason: shed });
    }
    return new Promise<HandshakeOutcome>((resolve) => {
      this.queue.push({ actOne, identity, live, resolve });
      this.dispatch();
    });
  }

  /**
   * A V2 port opened: the threads start now (a thread's first start takes a while; the first
   * miners' handshakes should not wait for it) and stay while any port holds the pool.
   */
  retain(): void {
    this.holders++;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    while (this.lanes.length < this.limits.threads) this.lanes.push(this.spawn());
  }

  /** Resolves once every thread has loaded: a V2 port listens after this. */
  async ready(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.ready));
  }

  /** A V2 port closed: with none left, the threads stop once idle. */
  release(): void {
    this.holders = Math.max(0, this.holders - 1);
    this.dispatch();
  }

  /** Stops the threads; what waits or runs is dropped. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const lanes = this.lanes.splice(0);
    for (const waiting of this.queue.splice(0)) this.finish(waiting, { kind: 'dropped' });
    for (const lane of lanes)
      for (const waiting of lane.running.values()) this.finish(waiting, { kind: 'dropped' });
    await Promise.all(lanes.map((lane) => lane.worker.terminate()));
  }

  private admit(ip: string, now: number): 'address-rate' | 'pool-rate' | 'busy' | undefined {
    if (this.pending >= this.limits.maxPending) return 'busy';
    let bucket = this.addresses.get(ip);
    if (!bucket) {
      bucket = new Bucket(this.limits.perAddress.perSecond, this.limits.perAddress.burst, now);
      this.addresses.set(ip, bucket);
    }
    if (!bucket.take(now)) return 'address-rate';
    if (!this.pool.take(now)) return 'pool-rate';
    return undefined;
  }

  /** Forgets addresses whose bucket is full again (at most once a second). */
  private prune(now: number): void {
    if (now - this.lastPruneMs < 1000) return;
    this.lastPruneMs = now;
    for (const [ip, bucket] of this.addresses) if (bucket.full(now)) this.addresses.delete(ip);
  }

  private dispatch(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    while (this.lanes.length < this.limits.threads && this.queue.length > 0) this.lanes.push(this.spawn());
    for (const lane of this.lanes) {
      while (lane.running.size < PER_THREAD) {
        const next = this.queue.shift();
        if (!next) break;
        if (!next.live()) {
          this.finish(next, { kind: 'dropped' });
          continue;
        }
        const id = this.nextId++;
        lane.running.set(id, next);
        const request: HandshakeRequest = { id, actOne: next.actOne, identity: next.identity };
        lane.worker.postMessage(request);
      }
    }
    if (this.pending === 0 && this.lanes.length > 0 && this.holders === 0) {
      this.idleTimer = setTimeout(() => void this.stopIdle(), this.limits.idleMs);
      this.idleTimer.unref();
    }
  }

  private async stopIdle(): Promise<void> {
    if (this.pending > 0 || this.holders > 0) return;
    const lanes = this.lanes.splice(0);
    await Promise.all(lanes.map((lane) => lane.worker.terminate()));
  }

  private spawn(): Lane {
    const worker = startWorker();
    // Held until it has loaded (someone awaits ready()), then it never keeps the process alive.
    let resolveReady: () => void = () => undefined;
    const loaded = (): void => {
      worker.unref();
      resolveReady();
    };
    const lane: Lane = {
      worker,
      running: new Map(),
      ready: new Promise((resolve) => (resolveReady = resolve)),
    };
    worker.on('message', (answer: HandshakeAnswer | { ready: true }) => {
      if ('ready' in answer) return loaded();
      const waiting = lane.running.get(answer.id);
      if (!waiting) return;
      lane.running.delete(answer.id);
      this.finish(
        waiting,
        answer.ok
          ? { kind: 'answered', reply: answer.reply, keys: answer.keys }
          : { kind: 'refused', error: answer.error },
      );
      this.dispatch();
    });
    worker.on('error', (error) => {
      loaded();
      // A thread that failed: its handshakes are refused, and the next handshake starts another.
      const index = this.lanes.indexOf(lane);
      if (index >= 0) this.lanes.splice(index, 1);
      for (const waiting of lane.running.values())
        this.finish(waiting, { kind: 'refused', error: error.message });
      lane.running.clear();
      this.dispatch();
    });
    return lane;
  }

  private finish(waiting: Waiting, outcome: HandshakeOutcome): void {
    this.counts[outcome.kind]++;
    waiting.resolve(outcome);
  }
}
