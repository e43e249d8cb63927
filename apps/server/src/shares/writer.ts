import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Database } from '../db/index.js';
import { SharesRepository } from '../db/repositories/shares.js';
import type { PoolEvents } from '../events.js';
import { batchIsEmpty, blockLine, newBatch, rejectLine, shareLine, type ShareBatch } from './batch.js';
import { ShareJournal, type HeldSocket } from './journal.js';
import { importLegacySpill } from './legacy-spill.js';
import { persistBatch, type PersistResult } from './persist.js';
import { emitPersisted } from './persisted-events.js';
import type { ShareSink } from './sink.js';
import type { AcceptedShare, FoundBlockRecord, MinerRef, RejectCount, RejectReason } from './types.js';

export interface ShareWriterOptions {
  db: Database;
  events: PoolEvents;
  logger: Logger;
  /** The journal lives under <dataDir>/journal/stratum-<instanceId|default>. */
  dataDir: string;
  /** stratum.instanceId: several Stratum processes on one dataDir each keep their own journal. */
  instanceId?: number;
  /** stratum.journalFsyncMs: fdatasync the journal at most this often; 0 = after every write. */
  fsyncMs?: number;
  flushIntervalMs?: number;
  /** A batch is cut at this many shares. */
  maxBatchShares?: number;
  /** Batches waiting for the database kept in memory; the others are read back from the journal. */
  maxMemoryBatches?: number;
}

export interface ShareWriterStats {
  batchesWritten: number;
  sharesWritten: number;
  failures: number;
  /** Batches written from journal files (left by a crash, a stop or an outage). */
  batchesFromJournal: number;
  /** Batches waiting for the database (in memory or only in the journal). */
  batchesWaiting: number;
  /** Shares waiting in memory (current batch + waiting batches still held in memory). */
  sharesWaiting: number;
}

/** A batch waiting for the database; `batch` is undefined once only its journal segment holds it. */
interface Waiting {
  id: string;
  batch: ShareBatch | undefined;
}

const MINUTE = 60_000;
const PRUNE_EVERY_MS = 3_600_000;
const KEEP_BATCH_IDS_MS = 7 * 86_400_000;

export function journalDir(dataDir: string, instanceId: number | undefined): string {
  return join(resolve(dataDir), 'journal', `stratum-${instanceId ?? 'default'}`);
}

/**
 * Crash-safe persistence of accepted shares, rejected counts and found blocks. Every share is
 * first appended to the local journal (ShareJournal: one write per turn of the event loop, and
 * the miner's `true` leaves only after it); every flush (four times a second) writes one batch
 * in one transaction under the batch id, so a batch written twice (from memory, then from its
 * journal segment after a crash) is counted once. A committed batch's segment is deleted. While
 * the database is down, batches wait: the first few in memory, the rest only in the journal.
 * At start, the segments left by the last run are written first.
 */
export class ShareWriter implements ShareSink {
  private current = newBatch();
  private readonly rejectIndex = new Map<string, RejectCount>();
  private readonly queue: Waiting[] = [];
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private lastPruneMs = 0;
  private readonly payeeCache = new Map<string, number>();
  readonly journal: ShareJournal;
  readonly stats: ShareWriterStats = {
    batchesWritten: 0,
    sharesWritten: 0,
    failures: 0,
    batchesFromJournal: 0,
    batchesWaiting: 0,
    sharesWaiting: 0,
  };
  private readonly flushIntervalMs: number;
  private readonly maxBatchShares: number;
  private readonly maxMemoryBatches: number;

  constructor(private readonly options: ShareWriterOptions) {
    this.journal = new ShareJournal({
      dir: journalDir(options.dataDir, options.instanceId),
      logger: options.logger,
      fsyncMs: options.fsyncMs ?? 1_000,
    });
    this.journal.next(this.current.id);
    // Four flushes a second: shares reach the database within ~250 ms, and each flush is small
    // enough (a quarter of a second of shares) not to hold the Stratum event loop.
    this.flushIntervalMs = options.flushIntervalMs ?? 250;
    this.maxBatchShares = options.maxBatchShares ?? 20_000;
    this.maxMemoryBatches = options.maxMemoryBatches ?? 4;
  }

  /**
   * Takes the journal (throws when another live process holds it), writes the batches a previous
   * run left in it (and in an old spill file), then flushes four times a second.
   */
  async start(): Promise<void> {
    if (this.timer) return;
    const old = this.journal.open();
    old.push(...importLegacySpill(this.options.dataDir, this.journal, this.options.logger));
    for (const id of old) this.queue.push({ id, batch: undefined });
    if (old.length > 0)
      this.options.logger.info({ batches: old.length }, 'writing share batches left in the journal');
    await this.flush();
    // Every tick cuts the current batch, also while a write is still waiting on the database (a
    // hung connection): each segment then holds one tick of shares, and waiting batches beyond
    // maxMemoryBatches live only in the journal, so memory stays bounded through an outage.
    this.timer ??= setInterval(() => {
      this.rotate();
      void this.flush();
    }, this.flushIntervalMs);
  }

  /**
   * Records an accepted share. `socket` is the miner's: it is corked until the share is in the
   * journal (end of this turn), so call this BEFORE writing the `true` reply.
   */
  addAccepted(share: AcceptedShare, socket?: HeldSocket): void {
    this.current.shares.push(share);
    this.journal.add(shareLine(share), socket);
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

  /** A found block is journaled and written at once (not at the next tick). */
  addBlock(block: FoundBlockRecord): Promise<void> {
    this.current.blocks.push(block);
    this.journal.add(blockLine(block));
    this.journal.flush();
    return this.flush();
  }

  /** The local journal takes every share (a full disk drops the connection instead). */
  refusal(): string | undefined {
    return undefined;
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

  /** Stops the timer, writes what it can; what the database did not take stays in the journal for the next start. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    await this.journal.close();
    if (this.queue.length > 0)
      this.options.logger.warn(
        { batches: this.queue.length },
        'database unavailable at stop: share batches kept in the journal',
      );
  }

  /** Closes the current batch: its reject counts go to its journal segment, which is sealed. */
  private rotate(): void {
    if (batchIsEmpty(this.current)) return;
    const batch = this.current;
    for (const r of batch.rejects) this.journal.add(rejectLine(r));
    this.current = newBatch();
    this.rejectIndex.clear();
    this.journal.next(this.current.id);
    // Past a few waiting batches (a database outage), the journal alone holds them: memory stays bounded.
    const keep = this.queue.length < this.maxMemoryBatches || !this.journal.has(batch.id);
    this.queue.push({ id: batch.id, batch: keep ? batch : undefined });
  }

  private async flushOnce(): Promise<void> {
    this.rotate();
    const ok = await this.writeQueue();
    if (ok) await this.prune();
    let waiting = this.current.shares.length;
    for (const w of this.queue) waiting += w.batch?.shares.length ?? 0;
    this.stats.sharesWaiting = waiting;
    this.stats.batchesWaiting = this.queue.length;
  }

  private async writeQueue(): Promise<boolean> {
    while (this.queue.length > 0) {
      const waiting = this.queue[0] as Waiting;
      const batch = waiting.batch ?? (await this.readJournal(waiting.id));
      if (batch && !(await this.write(batch))) return false;
      if (batch && !waiting.batch) this.stats.batchesFromJournal++;
      this.queue.shift();
      if (batch) this.journal.remove(waiting.id);
    }
    return true;
  }

  /** A batch's journal segment; undefined (logged, file left for the next start) when it cannot be read. */
  private async readJournal(id: string): Promise<ShareBatch | undefined> {
    try {
      return await this.journal.read(id);
    } catch (error) {
      this.options.logger.error(
        { err: error, batch: id },
        'cannot read a share journal segment; left for the next start',
      );
      return undefined;
    }
  }

  private async write(batch: ShareBatch): Promise<boolean> {
    let result: PersistResult;
    try {
      result = await persistBatch(this.options.db, batch, this.payeeCache);
    } catch (error) {
      this.stats.failures++;
      this.options.logger.warn(
        { err: error, batch: batch.id, shares: batch.shares.length },
        'share batch not written; kept for retry',
      );
      return false;
    }
    this.stats.batchesWritten++;
    if (!result.duplicate) this.stats.sharesWritten += batch.shares.length;
    emitPersisted(this.options.events, result);
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
