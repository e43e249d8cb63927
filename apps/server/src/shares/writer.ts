import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Database } from '../db/index.js';
import { SharesRepository } from '../db/repositories/shares.js';
import type { PoolEvents } from '../events.js';
import { batchIsEmpty, blockLine, newBatch, shareLine, type ShareBatch } from './batch.js';
import { ShareJournal, type HeldSocket } from './journal.js';
import { importLegacySpill } from './legacy-spill.js';
import { newIdCache, persistBatch, persistRejects, type PersistResult } from './persist.js';
import { emitPersisted } from './persisted-events.js';
import type { ShareSink } from './sink.js';
import type { AcceptedShare, FoundBlockRecord, MinerRef, RejectCount, RejectReason } from './types.js';

/** The writer's settings from the pool's config (stratum.instanceId, journalFsyncMs, statsFlushSeconds). */
export function shareWriterSettings(
  config: Config,
): Pick<ShareWriterOptions, 'dataDir' | 'instanceId' | 'fsyncMs' | 'statsFlushMs'> {
  return {
    dataDir: config.dataDir,
    instanceId: config.stratum.instanceId,
    fsyncMs: config.stratum.journalFsyncMs,
    statsFlushMs: config.stratum.statsFlushSeconds * 1000,
  };
}

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
  /** stratum.statsFlushSeconds: reject counts are written per worker and minute this often (ms). */
  statsFlushMs?: number;
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
  /** Transactions that wrote a stats interval's reject counts. */
  rejectFlushes: number;
  /** Reject counts dropped: the database stayed away so long that the pending counts passed their bound. */
  rejectsDropped: number;
}

/** A batch waiting for the database; `batch` is undefined once only its journal segment holds it. */
interface Waiting {
  id: string;
  batch: ShareBatch | undefined;
}

const MINUTE = 60_000;
/** Pending (worker, minute, reason) reject counts kept through a database outage. */
const MAX_PENDING_REJECT_COUNTS = 100_000;
/** Payee and worker ids kept per process; past this the cache starts again (ids are read back). */
const MAX_CACHED_IDS = 100_000;
const PRUNE_EVERY_MS = 3_600_000;
const KEEP_BATCH_IDS_MS = 7 * 86_400_000;
/**
 * How long a stop writes waiting share batches to the database: a third of the pool's whole stop
 * deadline (signals.ts STOP_DEADLINE_MS, 15 s), which the ports, the accounting and the dev chains
 * share. A backlog left then is in the journal and written at the next start.
 */
export const STOP_WRITE_MS = 5_000;

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
 *
 * Accepted shares carry their per-worker statistics (share_stats, workers counters, last share,
 * best share) in their batch's transaction: exact, and at most one upsert per worker per tick,
 * which vardiff bounds to a few shares per worker per minute. Rejected shares are only counted in
 * memory per (worker, minute, reason) and written every `statsFlushMs` (stratum.statsFlushSeconds)
 * in one transaction: the database work grows with workers and intervals, not with rejects.
 *
 * What a crash can lose: reject counts are not journaled, so a kill -9 (or power loss) loses the
 * reject counts not yet written — at most the last stats interval's, or those of a whole database
 * outage (kept in memory, bounded by MAX_PENDING_REJECT_COUNTS) if the database was away. A clean
 * stop writes them. Accepted shares, their statistics and found blocks lose nothing.
 */
export class ShareWriter implements ShareSink {
  private current = newBatch();
  /** Reject counts of the current stats interval (and of failed writes), keyed worker|minute|reason. */
  private rejects = new Map<string, RejectCount>();
  private rejectsDue = false;
  private lastRejectFlushMs = Date.now();
  private readonly queue: Waiting[] = [];
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private lastPruneMs = 0;
  private readonly ids = newIdCache();
  readonly journal: ShareJournal;
  readonly stats: ShareWriterStats = {
    batchesWritten: 0,
    sharesWritten: 0,
    failures: 0,
    batchesFromJournal: 0,
    batchesWaiting: 0,
    sharesWaiting: 0,
    rejectFlushes: 0,
    rejectsDropped: 0,
  };
  private readonly flushIntervalMs: number;
  /** Set by stop(): past this time (performance.now()) waiting batches are left in the journal. */
  private stopWritingAt = Number.POSITIVE_INFINITY;
  private readonly maxBatchShares: number;
  private readonly maxMemoryBatches: number;
  private readonly statsFlushMs: number;

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
    this.statsFlushMs = options.statsFlushMs ?? 5_000;
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
      void this.run(Date.now() - this.lastRejectFlushMs >= this.statsFlushMs);
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
    const existing = this.rejects.get(key);
    if (existing) existing.count++;
    else if (this.rejects.size < MAX_PENDING_REJECT_COUNTS)
      this.rejects.set(key, { miner, bucketMs, reason, count: 1 });
    // A database away for hours with many workers: memory stays bounded, the excess is counted.
    else this.stats.rejectsDropped++;
  }

  /** A found block is journaled and written at once (not at the next tick). */
  addBlock(block: FoundBlockRecord): Promise<void> {
    this.current.blocks.push(block);
    this.journal.add(blockLine(block));
    this.journal.flush();
    return this.run(false);
  }

  /** The local journal takes every share (a full disk drops the connection instead). */
  /** Accepted shares waiting in memory or the journal for the database. */
  backlog(): number {
    return this.stats.sharesWaiting;
  }

  refusal(): string | undefined {
    return undefined;
  }

  /** Writes everything waiting, reject counts included; resolves when this round is done (it never rejects). */
  flush(): Promise<void> {
    return this.run(true);
  }

  /** Writes the waiting batches, and the reject counts when `withRejects`. */
  private run(withRejects: boolean): Promise<void> {
    if (withRejects) this.rejectsDue = true;
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

  /**
   * Stops the timer and writes what it can within STOP_WRITE_MS; what the database did not take
   * by then (a backlog under heavy load, or a database away) stays in the journal, durable, and is
   * written at the next start. A stop is then bounded whatever the backlog.
   */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.stopWritingAt = performance.now() + STOP_WRITE_MS;
    await this.flush();
    await this.journal.close();
    if (this.queue.length > 0)
      this.options.logger.warn(
        { batches: this.queue.length, shares: this.stats.sharesWaiting },
        'stopping: share batches the database has not taken are kept in the journal for the next start',
      );
  }

  /** Closes the current batch: its journal segment is sealed. */
  private rotate(): void {
    if (batchIsEmpty(this.current)) return;
    const batch = this.current;
    this.current = newBatch();
    this.journal.next(this.current.id);
    // Past a few waiting batches (a database outage), the journal alone holds them: memory stays bounded.
    const keep = this.queue.length < this.maxMemoryBatches || !this.journal.has(batch.id);
    this.queue.push({ id: batch.id, batch: keep ? batch : undefined });
  }

  private async flushOnce(): Promise<void> {
    this.rotate();
    const ok = await this.writeQueue();
    if (ok && this.rejectsDue) {
      this.rejectsDue = false;
      await this.writeRejects();
    }
    if (ok) await this.prune();
    let waiting = this.current.shares.length;
    for (const w of this.queue) waiting += w.batch?.shares.length ?? 0;
    this.stats.sharesWaiting = waiting;
    this.stats.batchesWaiting = this.queue.length;
  }

  private async writeQueue(): Promise<boolean> {
    while (this.queue.length > 0) {
      // Stopping, past the time given: the rest waits in the journal (only what it holds).
      if (performance.now() > this.stopWritingAt && this.queue.every((w) => this.journal.has(w.id)))
        return true;
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
      this.boundIds();
      result = await persistBatch(this.options.db, batch, this.ids);
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

  /** Writes the reject counts gathered since the last time; on failure they wait for the next interval. */
  private async writeRejects(): Promise<void> {
    this.lastRejectFlushMs = Date.now();
    if (this.rejects.size === 0) return;
    const taken = this.rejects;
    this.rejects = new Map();
    try {
      this.boundIds();
      await persistRejects(this.options.db, [...taken.values()], this.ids);
      this.stats.rejectFlushes++;
    } catch (error) {
      this.stats.failures++;
      if (taken.size + this.rejects.size > MAX_PENDING_REJECT_COUNTS) {
        let dropped = 0;
        for (const r of taken.values()) dropped += r.count;
        this.stats.rejectsDropped += dropped;
        this.options.logger.error(
          { err: error, dropped },
          'reject counts not written and too many waiting: dropped',
        );
        return;
      }
      this.options.logger.warn(
        { err: error, counts: taken.size },
        'reject counts not written; kept for retry',
      );
      for (const [key, r] of this.rejects) {
        const older = taken.get(key);
        if (older) older.count += r.count;
        else taken.set(key, r);
      }
      this.rejects = taken;
    }
  }

  private boundIds(): void {
    if (this.ids.payees.size > MAX_CACHED_IDS) this.ids.payees.clear();
    if (this.ids.workers.size > MAX_CACHED_IDS) this.ids.workers.clear();
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
