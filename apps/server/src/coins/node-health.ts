// Is a coin's work backed by a node? The one place that decides, for every family (Bitcoin's
// template watcher, Kaspa's node set): a coin is down once no node of it has answered for
// `silenceMs`, and up again at the first answer. Callers report answers (answered) and tick the
// clock (check); listeners hear each change once.
import type { Logger } from 'pino';

export interface NodeAvailability {
  up: boolean;
  /** When the current state began (down: the moment the silence limit passed). */
  since: Date;
  /** When a node of the coin last answered (null: never). */
  lastAnswerAt: Date | null;
  /** One line for operators and miners. */
  message: string;
}

export type AvailabilityListener = (availability: NodeAvailability) => void;

export interface NodeHealthOptions {
  coin: string;
  silenceMs: number;
  /** How often check() runs: a check much later than that means the event loop was stalled. */
  checkIntervalMs: number;
  logger: Logger;
  now?: () => number;
}

export class NodeHealth {
  private readonly listeners = new Set<AvailabilityListener>();
  private readonly now: () => number;
  private lastAnswerMs: number | null = null;
  /** Silence is counted from here when no node ever answered (the watcher's start). */
  private readonly startedMs: number;
  private state: NodeAvailability;
  private lastCheckMs: number | null = null;
  /** The last check came after a stall of our own event loop and gave no verdict. */
  private postponed = false;

  constructor(private readonly options: NodeHealthOptions) {
    this.now = options.now ?? Date.now;
    this.startedMs = this.now();
    this.state = { up: true, since: new Date(this.startedMs), lastAnswerAt: null, message: 'node answers' };
  }

  onChange(listener: AvailabilityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  availability(): NodeAvailability {
    return this.state;
  }

  /**
   * A node of the coin answered a call. `sentAtMs`: when that call was sent — the answer proves
   * the node alive only from then, so the silence is counted from the request, not the reply.
   */
  answered(sentAtMs?: number): void {
    const now = this.now();
    this.lastAnswerMs = Math.max(this.lastAnswerMs ?? 0, Math.min(sentAtMs ?? now, now));
    if (this.state.up) {
      this.state = { ...this.state, lastAnswerAt: new Date(now) };
      return;
    }
    const downSeconds = Math.round((now - this.state.since.getTime()) / 1000);
    this.options.logger.warn(
      { coin: this.options.coin, downSeconds },
      `${this.options.coin}: a node answers again; work resumes`,
    );
    this.change({ up: true, since: new Date(now), lastAnswerAt: new Date(now), message: 'node answers' });
  }

  /** Marks the coin down once the silence has lasted past the limit. */
  check(): void {
    const now = this.now();
    const lateBy = now - (this.lastCheckMs ?? now) - this.options.checkIntervalMs;
    this.lastCheckMs = now;
    if (!this.state.up) return;
    // After a stall of our own event loop, answers may be waiting unread: the I/O that follows
    // this tick reads them, so judge on the next tick. Once only: under a loop that stays busy
    // every tick is late, and the verdict must still come.
    const stalled = lateBy > Math.max(500, this.options.checkIntervalMs);
    if (stalled && !this.postponed) {
      this.postponed = true;
      return;
    }
    this.postponed = false;
    if (!this.silentPastLimit(now)) return;
    const seconds = Math.round(this.options.silenceMs / 1000);
    const message = `${this.options.coin}: no node has answered for ${seconds} s; work stopped, miners sent to their backup pools`;
    this.options.logger.error(
      {
        coin: this.options.coin,
        lastAnswerAt: this.lastAnswerMs === null ? null : new Date(this.lastAnswerMs),
      },
      message,
    );
    this.change({ up: false, since: new Date(now), lastAnswerAt: this.state.lastAnswerAt, message });
  }

  /**
   * True once no node has answered for the silence limit, even before check() has announced it:
   * work judged now (a share) is not credited, though the change may come a tick later.
   */
  silentPastLimit(now: number = this.now()): boolean {
    return !this.state.up || now - (this.lastAnswerMs ?? this.startedMs) >= this.options.silenceMs;
  }

  private change(next: NodeAvailability): void {
    this.state = next;
    for (const listener of this.listeners) {
      try {
        listener(next);
      } catch (err) {
        this.options.logger.error({ err, coin: this.options.coin }, 'a node availability listener threw');
      }
    }
  }
}
