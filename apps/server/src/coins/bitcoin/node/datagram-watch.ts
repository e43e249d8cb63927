// Whether the node's -blocknotify datagrams arrive. While they do, the template watcher holds no
// GBT longpoll (template-watcher.ts explains why); a new tip whose datagram has not come
// BLOCKNOTIFY_LATE_MS after its template means the command is gone (a node restarted without it,
// a firewall): the watcher is told, and holds a longpoll again until a datagram comes back.
import type { Logger } from 'pino';

/** A new tip's datagram not come this long after its template: blocknotify is taken as not set up. */
export const BLOCKNOTIFY_LATE_MS = 1_000;

export class DatagramWatch {
  /** The hash of the newest datagram. */
  private newest: string | undefined;
  private arriving = false;
  private check: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    /** Datagrams stopped arriving (a tip came without one). */
    private readonly onLate: () => void,
  ) {}

  /** The node's datagrams arrive (the newest tip had one, or none has been missed since the first). */
  get works(): boolean {
    return this.arriving;
  }

  /** A datagram for `hash` came. */
  heard(hash: string): void {
    this.newest = hash;
    if (this.arriving) return;
    this.arriving = true;
    this.logger.info('blocknotify datagrams arrive: no longpoll held while they do (the poll stays on)');
  }

  /** A new tip is out: unless its datagram comes (or came) within BLOCKNOTIFY_LATE_MS, it is late. */
  expect(hash: string): void {
    clearTimeout(this.check);
    if (!this.arriving || this.newest === hash) return;
    this.check = setTimeout(() => {
      if (this.newest === hash || !this.arriving) return;
      this.arriving = false;
      this.logger.warn({ tip: hash }, 'no blocknotify datagram for a new tip: longpoll held again');
      this.onLate();
    }, BLOCKNOTIFY_LATE_MS);
  }

  stop(): void {
    clearTimeout(this.check);
  }
}
