import { closeSync, fdatasync, fdatasyncSync, fsync, fsyncSync, openSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Logger } from 'pino';

const fdatasyncAsync = promisify(fdatasync);
const fsyncAsync = promisify(fsync);

/**
 * The journal's fsync policy. With `fsyncMs` 0 every write is fdatasync'ed before the replies
 * it holds are let go (a power loss loses no acknowledged share). Otherwise a timer fdatasyncs
 * the files written since its last round, every `fsyncMs`, in libuv's thread pool so the event
 * loop never waits for the disk (a power loss can lose the acknowledged shares of the last
 * `fsyncMs` or so; a process crash loses none either way). The directory is fsync'ed too when
 * segment files were created, and sealed segments are closed only once synced.
 */
export class JournalSyncer {
  private readonly dirty = new Set<number>();
  private sealed: number[] = [];
  private dirDirty = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    private readonly fsyncMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.fsyncMs === 0 || this.timer) return;
    this.timer = setInterval(() => this.background(), this.fsyncMs);
    this.timer.unref();
  }

  /** After each append: with fsyncMs 0 the data is on disk when this returns. */
  written(fd: number): void {
    this.dirty.add(fd);
    if (this.fsyncMs === 0) this.now();
  }

  /** A segment file was created. */
  created(): void {
    this.dirDirty = true;
  }

  /** A segment is complete: closed now if synced, else after the next sync round. */
  seal(fd: number): void {
    if (this.fsyncMs === 0 && !this.dirty.has(fd)) closeSync(fd);
    else this.sealed.push(fd);
  }

  /** Waits for a round in flight, then syncs and closes everything, synchronously. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    this.now();
  }

  /** Synchronous round (fsyncMs 0, and at close). */
  private now(): void {
    try {
      for (const fd of this.dirty) fdatasyncSync(fd);
      this.dirty.clear();
      if (this.dirDirty) {
        this.dirDirty = false;
        const fd = openSync(this.dir, 'r');
        try {
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
      }
    } catch (error) {
      this.logger.error({ err: error, dir: this.dir }, 'share journal fdatasync failed');
    }
    for (const fd of this.sealed.splice(0)) closeSync(fd);
  }

  /** Timer round in the thread pool; one at a time, so no fd is closed while a sync uses it. */
  private background(): void {
    if (this.running || (this.dirty.size === 0 && !this.dirDirty && this.sealed.length === 0)) return;
    const fds = [...this.dirty];
    this.dirty.clear();
    const sealed = this.sealed;
    this.sealed = [];
    const dir = this.dirDirty;
    this.dirDirty = false;
    this.running = (async () => {
      try {
        await Promise.all(fds.map((fd) => fdatasyncAsync(fd)));
        if (dir) await this.syncDirectory();
      } catch (error) {
        this.logger.error({ err: error, dir: this.dir }, 'share journal fdatasync failed');
      } finally {
        for (const fd of sealed) closeSync(fd);
        this.running = undefined;
      }
    })();
  }

  private async syncDirectory(): Promise<void> {
    const fd = openSync(this.dir, 'r');
    try {
      await fsyncAsync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
