import { ShareHasher } from '@manjam/protocol';
import type { QueuedShare, ShareQueue, StratumSession } from './context.js';
import type { Job } from './jobs.js';

/**
 * Most shares judged in one turn: past it the rest wait for the next turn (setImmediate again),
 * so timers, node answers (a new tip) and other sockets are served between slices of about 2-4 ms
 * instead of behind every share that arrived at once. 128 (was 512): a new tip reached 1,000
 * miners with 4 submits in flight each in half the time (bench:stratum new-tip, p50 63-67 -> 32-38
 * ms, the pool's writes done at a median 71-90 -> 36-48 ms after the tip), with no loss of shares/s
 * (sha256d-max and -pipelined, alternating runs; docs/BENCHMARKS.md). 64 measured the same as 128.
 */
export const SHA256D_SLICE = 128;

type HashResult = { hash: Buffer | undefined; error?: undefined } | { hash?: undefined; error: unknown };

/**
 * The SHA-256d submits of one turn of the event loop, hashed together: ShareHasher does four
 * shares of a job per WebAssembly SIMD pass (about 2.5 times the one-at-a-time JS path), at most
 * SHA256D_SLICE per turn. Each
 * share's callback runs in arrival order right after, in the same turn (setImmediate), and every
 * session that got a share in the batch has its socket corked while the batch is judged, so a
 * miner's answers still leave in one write (they wait in its ReplyOrder until then). Sockets are
 * not corked while shares wait: a mining.notify written meanwhile (a new tip) leaves at once,
 * before the batch is judged.
 */
export class Sha256dQueue<T> implements ShareQueue<T> {
  private pending: QueuedShare<T>[] = [];
  private scheduled = false;

  constructor(
    private readonly onHashed: (share: QueuedShare<T>, hash: Buffer) => void,
    /** A share whose parts the hasher refused (cannot happen after parseSubmitParams; answered as invalid). */
    private readonly onRefused: (share: QueuedShare<T>, error: unknown) => void,
    private readonly hasher = new ShareHasher(),
    private readonly slice = SHA256D_SLICE,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  add(share: QueuedShare<T>): void {
    this.pending.push(share);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.run());
    }
  }

  private run(): void {
    this.scheduled = false;
    let batch = this.pending;
    this.pending = [];
    if (batch.length > this.slice) {
      this.pending = batch.slice(this.slice);
      batch = batch.slice(0, this.slice);
      this.scheduled = true;
      setImmediate(() => this.run());
    }
    const corked = new Set<StratumSession>();
    for (const share of batch) {
      if (corked.has(share.session)) continue;
      corked.add(share.session);
      share.session.socket.cork();
    }
    try {
      const hashes = this.hashAll(batch);
      for (const share of batch) {
        const result = hashes.get(share);
        if (result?.hash) this.onHashed(share, result.hash);
        else this.onRefused(share, result?.error);
      }
    } finally {
      for (const session of corked) session.socket.uncork();
    }
  }

  /** Each share's hash, or the error that refused it; shares of one job go through the hasher together. */
  private hashAll(batch: QueuedShare<T>[]): Map<QueuedShare<T>, HashResult> {
    const byJob = new Map<Job, QueuedShare<T>[]>();
    for (const share of batch) {
      const list = byJob.get(share.job);
      if (list) list.push(share);
      else byJob.set(share.job, [share]);
    }
    const out = new Map<QueuedShare<T>, HashResult>();
    for (const [job, shares] of byJob) {
      try {
        const hashes = this.hasher.hashes(
          job.template,
          shares.map((s) => s.input),
        );
        shares.forEach((s, i) => out.set(s, { hash: hashes[i] }));
      } catch {
        // One bad share must not cost the others: hash them one by one.
        for (const s of shares) {
          try {
            out.set(s, { hash: this.hasher.hashes(job.template, [s.input])[0] });
          } catch (error) {
            out.set(s, { error });
          }
        }
      }
    }
    return out;
  }
}
