import {
  appendFileSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { applyLine, newBatch, type ShareBatch } from './batch.js';
import { acquireLock, releaseLock } from './journal-lock.js';
import { JournalSyncer } from './journal-sync.js';

/** What the journal needs of a miner's socket: replies written to it wait while it is corked. */
export interface HeldSocket {
  cork(): void;
  uncork(): void;
  destroy(): void;
}

export interface ShareJournalOptions {
  /** e.g. <dataDir>/journal/stratum-default: one directory per Stratum process. */
  dir: string;
  logger: Logger;
  /** fdatasync at most this often (ms); 0 = after every write. */
  fsyncMs: number;
}

/** `<ms since epoch, 13 digits>-<batch id>.jsonl`: names sort in the order segments were made. */
const SEGMENT = /^(\d{13})-([0-9a-f-]{36})\.jsonl$/;

/**
 * The local append-only share journal: one segment file per database batch, so a batch
 * committed to the database is forgotten with one unlink. Records of one turn of the event loop
 * are buffered and written with ONE synchronous append at the end of the turn; the sockets that
 * carry their `true` replies stay corked until then, so a reply never leaves before its share
 * is in the file (a process crash keeps what reached the page cache; fsyncMs bounds what a
 * power loss can take). A failed write destroys those sockets: their replies are never sent.
 */
export class ShareJournal {
  private pending = '';
  private readonly held = new Set<HeldSocket>();
  private scheduled = false;
  private batchId = '';
  private fd: number | undefined;
  /** Batch id -> segment file, for segments not yet removed. */
  private readonly paths = new Map<string, string>();
  private opened = false;
  private closed = false;
  private readonly syncer: JournalSyncer;
  private readonly flushNow = () => this.flush();
  /** One per append (a turn of the event loop, a sealed batch or a found block). */
  writes = 0;

  constructor(private readonly options: ShareJournalOptions) {
    this.syncer = new JournalSyncer(options.dir, options.fsyncMs, options.logger);
  }

  get lockPath(): string {
    return join(this.options.dir, 'lock');
  }

  /** Takes the directory's lock (throws when another live process holds it); returns old segments' batch ids, oldest first. */
  open(): string[] {
    if (!this.opened) {
      mkdirSync(this.options.dir, { recursive: true });
      acquireLock(this.lockPath);
      this.opened = true;
      this.closed = false;
      this.syncer.start();
    }
    const found: string[] = [];
    for (const name of readdirSync(this.options.dir).sort()) {
      const match = SEGMENT.exec(name);
      const id = match?.[2];
      if (!id || id === this.batchId || this.paths.has(id)) continue;
      this.paths.set(id, join(this.options.dir, name));
      found.push(id);
    }
    return found;
  }

  /** Buffers one record of batch `batchId` (see next()); its socket stays corked until it is written. */
  add(line: string, socket?: HeldSocket): void {
    this.pending += line;
    if (socket && !this.held.has(socket)) {
      this.held.add(socket);
      socket.cork();
    }
    if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(this.flushNow);
    }
  }

  /** Writes what is buffered, then lets the held replies go (or drops them if the write failed). */
  flush(): void {
    this.scheduled = false;
    const ok = this.pending.length === 0 || this.writePending();
    for (const socket of this.held) {
      if (ok) socket.uncork();
      else socket.destroy();
    }
    this.held.clear();
  }

  /** Seals the current segment (its records are all written) and starts batch `batchId`'s. */
  next(batchId: string): void {
    this.flush();
    if (this.fd !== undefined) {
      this.syncer.seal(this.fd);
    }
    this.fd = undefined;
    this.batchId = batchId;
  }

  /** Writes a whole batch as its own segment at once (old spill files moved into the journal). */
  importBatch(batch: ShareBatch, lines: string): void {
    const path = this.segmentPath(batch.id);
    appendFileSync(path, lines);
    const fd = openSync(path, 'r');
    fsyncSync(fd);
    closeSync(fd);
    this.syncer.created();
    this.paths.set(batch.id, path);
  }

  has(batchId: string): boolean {
    return this.paths.has(batchId);
  }

  /**
   * A segment's batch. A last line without its newline (a crash in the middle of a write: its
   * reply was never sent) is ignored with a warning; other unreadable lines go to `bad.jsonl`.
   */
  async read(batchId: string): Promise<ShareBatch> {
    const path = this.paths.get(batchId);
    const batch = { ...newBatch(), id: batchId };
    if (!path) return batch;
    const lines = (await readFile(path, 'utf8')).split('\n');
    const torn = lines.pop();
    if (torn)
      this.options.logger.warn(
        { path, bytes: torn.length },
        'share journal ends in a torn record (a crash mid-write); ignored',
      );
    for (const line of lines) {
      try {
        applyLine(batch, line);
      } catch (error) {
        this.options.logger.error(
          { err: error, path },
          'unreadable line in the share journal; kept in bad.jsonl',
        );
        appendFileSync(join(this.options.dir, 'bad.jsonl'), line + '\n');
      }
    }
    return batch;
  }

  /** Forgets a segment whose batch is in the database. */
  remove(batchId: string): void {
    const path = this.paths.get(batchId);
    if (!path) return;
    this.paths.delete(batchId);
    try {
      unlinkSync(path);
    } catch (error) {
      this.options.logger.warn(
        { err: error, path },
        'could not remove a committed share journal segment (replaying it is harmless)',
      );
    }
  }

  /** Writes what is buffered, syncs, closes the files and releases the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.next('');
    this.closed = true;
    await this.syncer.close();
    if (this.opened) releaseLock(this.lockPath);
    this.opened = false;
  }

  private segmentPath(batchId: string): string {
    return join(this.options.dir, `${String(Date.now()).padStart(13, '0')}-${batchId}.jsonl`);
  }

  private writePending(): boolean {
    const data = Buffer.from(this.pending, 'utf8');
    this.pending = '';
    try {
      if (this.closed) throw new Error('share journal is closed');
      if (!this.opened) this.open();
      const fd = this.currentFd();
      let offset = 0;
      while (offset < data.length) offset += writeSync(fd, data, offset);
      this.writes++;
      this.syncer.written(fd);
      return true;
    } catch (error) {
      this.options.logger.error(
        { err: error, dir: this.options.dir },
        'cannot write the share journal: the replies of these shares are dropped',
      );
      return false;
    }
  }

  private currentFd(): number {
    if (this.fd === undefined) {
      const path = this.segmentPath(this.batchId);
      this.fd = openSync(path, 'a');
      this.paths.set(this.batchId, path);
      this.syncer.created();
    }
    return this.fd;
  }
}
