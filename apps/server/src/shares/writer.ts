import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Database } from '../db/index.js';
import { SharesRepository } from '../db/repositories/shares.js';
import type { PoolEvents } from '../events.js';
import { batchIsEmpty, decodeBatch, encodeBatch, newBatch, type ShareBatch } from './batch.js';
import { persistBatch, type PersistResult } from './persist.js';
import type { AcceptedShare, FoundBlockRecord, MinerRef, RejectCount, RejectReason } from './types.js';

export interface ShareWriterOptions {
  db: Database;
  events: PoolEvents;
  logger: Logger;
  /** The spill file lives under here (stratum-spill/shares.jsonl). */
  dataDir: string;
  flushIntervalMs?: number;
  /** Accepted shares kept in memory while the database is down before they go to the spill file. */
  maxBufferedShares?: number;
  /** A batch is cut at this many shares. */
  maxBatchShares?: number;
}

export interface ShareWriterStats {
  batchesWritten: number;
  sharesWritten: number;
  failures: number;
  sharesSpilled: number;
  /** Shares waiting in memory (current batch + batches that failed). */
  sharesWaiting: number;
}

const MINUTE = 60_000;
const PRUNE_EVERY_MS = 3_600_000;
const KEEP_BATCH_IDS_MS = 7 * 86_400_000;

/**
 * Batched, crash-safe persistence of accepted shares, rejected counts and found blocks.
 * Every flush (four times a second) writes one batch in one transaction under a batch id, so
 * a retry never writes twice. When the database is down, batches wait in memory up to a bound,
 * then go to an append-only JSON-lines spill file; both are written when the database returns.
 * On stop, everything is flushed, or spilled when the database is still down.
 */
export class ShareWriter {
  private current = newBatch();
  private readonly rejectIndex = new Map<string, RejectCount>();
  private readonly queue: ShareBatch[] = [];
  private queuedShares = 0;
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private lastPruneMs = 0;
  private readonly payeeCache = new Map<string, number>();
  readonly spillPath: string;
  readonly stats: ShareWriterStats = { batchesWritten: 0, sharesWritten: 0, failures: 0, sharesSpilled: 0, sharesWaiting: 0 };
  private readonly flushIntervalMs: number;
  private readonly maxBufferedShares: number;
  private readonly maxBatchShares: number;

  constructor(private readonly options: ShareWriterOptions) {
    this.spillPath = join(resolve(options.dataDir), 'stratum-spill', 'shares.jsonl');
    // Four flushes a second: shares reach the database within ~250 ms, and each flush is small
    // enough (a quarter of a second of shares) not to hold the Stratum event loop.
    this.flushIntervalMs = options.flushIntervalMs ?? 250;
    this.maxBufferedShares = options.maxBufferedShares ?? 500_000;
    this.maxBatchShares = options.maxBatchShares ?? 20_000;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.flushIntervalMs);
  }

  addAccepted(share: AcceptedShare): void {
    this.current.shares.push(share);
    if (this.current.shares.length >= this.maxBatchShares) this.rotate();
  }

  addRejected(miner: MinerRef, reason: RejectReason, atMs: number): void {
    const bucketMs = Math.floor(atMs / MINUTE) * MINUTE;
    const key = `${miner.workerKey}|${bucketMs}|${reason}`;
    const existing = this.rejectIndex.get(key);
    if (existing) {
      existing.count++;
      return;
    }
    const entry: RejectCount = { miner, bucketMs, reason, count: 1 };
    this.rejectIndex.set(key, entry);
    this.current.rejects.push(entry);
  }

  /** A found block is written at once (not at the next tick). */
  addBlock(block: FoundBlockRecord): Promise<void> {
    this.current.blocks.push(block);
    return this.flush();
  }

  /** Writes everything waiting; resolves when this round is done (it never rejects). */
  flush(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.flushOnce();
      } while (this.again);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops the timer, writes what it can and spills the rest. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    if (this.queue.length > 0) await this.spill(this.queue.length);
  }

  private rotate(): void {
    if (batchIsEmpty(this.current)) return;
    this.queue.push(this.current);
    this.queuedShares += this.current.shares.length;
    this.current = newBatch();
    this.rejectIndex.clear();
  }

  private async flushOnce(): Promise<void> {
    this.rotate();
    const ok = (await this.replaySpill()) && (await this.writeQueue());
    if (!ok && this.queuedShares > this.maxBufferedShares) await this.spill(this.queue.length);
    if (ok) await this.prune();
    this.stats.sharesWaiting = this.queuedShares + this.current.shares.length;
  }

  private async writeQueue(): Promise<boolean> {
    while (this.queue.length > 0) {
      const batch = this.queue[0] as ShareBatch;
      if (!(await this.write(batch))) return false;
      this.queue.shift();
      this.queuedShares -= batch.shares.length;
    }
    return true;
  }

  private async write(batch: ShareBatch): Promise<boolean> {
    let result: PersistResult;
    try {
      result = await persistBatch(this.options.db, batch, this.payeeCache);
    } catch (error) {
      this.stats.failures++;
      this.options.logger.warn({ err: error, batch: batch.id, shares: batch.shares.length }, 'share batch not written; kept for retry');
      return false;
    }
    this.stats.batchesWritten++;
    if (!result.duplicate) this.stats.sharesWritten += batch.shares.length;
    for (const p of result.payees) {
      this.options.events.emit('shares.flushed', { coin: p.coin, payeeId: p.payeeId, userId: p.userId, workerIds: [...p.workerIds], count: p.count });
    }
    for (const b of result.blocks) this.options.events.emit('block.found', b);
    return true;
  }

  /** Moves the oldest `count` waiting batches to the spill file. */
  private async spill(count: number): Promise<void> {
    const batches = this.queue.slice(0, count);
    if (batches.length === 0) return;
    try {
      await mkdir(dirname(this.spillPath), { recursive: true });
      await appendFile(this.spillPath, batches.map((b) => encodeBatch(b) + '\n').join(''), { flag: 'a' });
    } catch (error) {
      this.options.logger.error({ err: error, path: this.spillPath }, 'cannot write the share spill file; shares stay in memory');
      return;
    }
    this.queue.splice(0, batches.length);
    for (const b of batches) {
      this.queuedShares -= b.shares.length;
      this.stats.sharesSpilled += b.shares.length;
    }
    this.options.logger.warn({ batches: batches.length, path: this.spillPath }, 'database unavailable: shares spilled to file');
  }

  /** Writes the spill file's batches; removes the file when all are in. False on a failure. */
  private async replaySpill(): Promise<boolean> {
    const replaying = `${this.spillPath}.replay`;
    if (!existsSync(replaying)) {
      if (!existsSync(this.spillPath)) return true;
      await rename(this.spillPath, replaying);
    }
    const lines = (await readFile(replaying, 'utf8')).split('\n').filter((l) => l.length > 0);
    for (const line of lines) {
      let batch: ShareBatch;
      try {
        batch = decodeBatch(line);
      } catch (error) {
        this.options.logger.error({ err: error }, 'unreadable line in the share spill file; kept in shares.bad');
        await appendFile(`${this.spillPath}.bad`, line + '\n');
        continue;
      }
      if (!(await this.write(batch))) return false;
    }
    // Anything spilled while replaying went to a fresh spill file: it is replayed next time.
    await unlink(replaying);
    return true;
  }

  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPruneMs < PRUNE_EVERY_MS) return;
    this.lastPruneMs = now;
    try {
      await new SharesRepository(this.options.db).pruneBatches(new Date(now - KEEP_BATCH_IDS_MS));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not prune share batch ids');
    }
  }
}
