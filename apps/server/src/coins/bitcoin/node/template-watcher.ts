// Keeps the pool on the node's current tip. Three ways to learn of a new block, fastest first:
//  1. blocknotify: the node runs a command (blocknotifyCommand) that sends a UDP datagram here;
//  2. GBT longpoll: a getblocktemplate call the node holds until the template changes;
//  3. polling getbestblockhash every `pollIntervalMs` (default 500 ms; 0 turns it off) — the
//     fallback that works with any node. A tiny call, so cheap enough to keep on always.
// A new tip heard by blocknotify or poll is announced at once (TipListener) from getblockheader,
// which the node answers in a millisecond, and its template (with its transaction list) is
// fetched after it: Stratum sends a coinbase-only job on the new tip first. A longpoll answer is
// itself the new template and is emitted as it is.
// While the node's blocknotify datagrams arrive (and the poll is on, the fallback for a lost one),
// no longpoll is held: Bitcoin Core wakes a held getblocktemplate the moment its tip moves and
// builds the new template holding cs_main, the lock getblockheader also takes, so the header would
// come only after the template it is meant to overtake. A new tip whose datagram has not come
// BLOCKNOTIFY_LATE_MS after its template holds a longpoll again (datagram-watch.ts, longpoll.ts).
// Templates are fetched one at a time (no out-of-order results); an answer that started before a
// tip was announced and is not on it is dropped (the fetch queued by the announcement follows). A template is emitted when
// the tip changes (newTip=true), when a longpoll says the template changed, and at least every
// `refreshIntervalMs` (default 30 s) with fresh transactions and time (newTip=false).
// Node failures are logged with back-off and never escape as unhandled rejections. Every answer
// is reported to `health` (NodeHealth): past `silenceMs` without one the coin is down, the back-off
// is capped at `downBackoffMs` so a returning node is seen at once, and its first answer brings a
// fresh template (reason 'refresh').
import type { NewTipSource } from '@manjam/contract';
import type { Logger } from 'pino';
import { BlocknotifyListener, blocknotifyCommand } from './blocknotify-listener.js';
import { DatagramWatch } from './datagram-watch.js';
import { Longpoll } from './longpoll.js';
import { NodeHealth } from '../../node-health.js';
import { TipAnnouncer } from './tip-announcer.js';
import type { NodeTemplate } from './node.js';
import type {
  TipListener,
  TemplateListener,
  TemplateReason,
  TemplateWatcherOptions,
  WatcherNode,
  WatcherStatus,
} from './watcher-types.js';

export {
  TEMPLATE_REASONS,
  type TemplateInfo,
  type TemplateListener,
  type TipListener,
  type TemplateReason,
  type TemplateWatcherOptions,
  type WatcherNode,
  type WatcherStatus,
} from './watcher-types.js';

export { UNHELD_LONGPOLL_PAUSE_MS } from './longpoll.js';
export { BLOCKNOTIFY_LATE_MS } from './datagram-watch.js';

export class TemplateWatcher {
  private readonly listeners = new Set<TemplateListener>();
  private readonly tips: TipAnnouncer;
  /** Whether the node's datagrams arrive: while they do, no longpoll is held (see above). */
  private readonly datagrams: DatagramWatch;
  private readonly longpoll: Longpoll;
  private readonly node: WatcherNode;
  private readonly logger: Logger;
  private readonly opts: Required<Omit<TemplateWatcherOptions, 'node' | 'logger' | 'blocknotifyPort'>>;
  private readonly blocknotify: BlocknotifyListener | undefined;
  private running = false;
  private tipHash: string | null = null;
  private height: number | null = null;
  private longpollId: string | undefined;
  private lastTemplateAt: Date | null = null;
  private templatesEmitted = 0;
  private lastError: WatcherStatus['lastError'] = null;
  private fetching: Promise<void> | undefined;
  private queued: TemplateReason | undefined;
  private timers: NodeJS.Timeout[] = [];
  private failures = 0;
  private polling = false;
  /** Decides whether the coin's work is backed by a node (see node-health.ts). */
  readonly health: NodeHealth;

  constructor(private readonly options: TemplateWatcherOptions) {
    this.node = options.node;
    this.logger = options.logger.child({ component: 'template-watcher', coin: options.node.coin });
    this.opts = {
      longpoll: options.longpoll ?? true,
      pollIntervalMs: options.pollIntervalMs ?? 500,
      refreshIntervalMs: options.refreshIntervalMs ?? 30_000,
      longpollTimeoutMs: options.longpollTimeoutMs ?? 600_000,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
      silenceMs: options.silenceMs ?? 30_000,
      downBackoffMs: options.downBackoffMs ?? 2_000,
    };
    this.health = new NodeHealth({
      coin: options.node.coin,
      silenceMs: this.opts.silenceMs,
      checkIntervalMs: this.healthCheckMs(),
      logger: options.logger,
    });
    // A node back after the coin was down: a fresh template at once (a clean job, see JobManager).
    this.health.onChange((availability) => {
      if (availability.up) void this.trigger('refresh');
    });
    this.tips = new TipAnnouncer(this.node, this.logger, () => ({
      running: this.running,
      tipHash: this.tipHash,
    }));
    this.longpoll = new Longpoll({
      node: this.node,
      timeoutMs: this.opts.longpollTimeoutMs,
      longpollId: () => this.longpollId,
      wanted: () => this.longpollWanted(),
      answered: (template) => {
        this.health.answered();
        return this.running ? this.trigger('longpoll', template) : Promise.resolve();
      },
      failed: (err) => this.recordError('getblocktemplate longpoll failed', err),
      backoffMs: () => this.backoffMs(),
    });
    this.datagrams = new DatagramWatch(this.logger, () => {
      if (this.running) this.longpoll.wake();
    });
    if (options.blocknotifyPort !== undefined) {
      this.blocknotify = new BlocknotifyListener(
        (message) => this.onBlocknotify(message.coin, message.hash),
        (junk) => this.logger.debug({ junk: junk.slice(0, 80) }, 'ignored a malformed blocknotify datagram'),
      );
    }
  }

  /** Subscribes to templates; returns the unsubscribe function. */
  onTemplate(listener: TemplateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hears each new tip as soon as its header is known (before the template); returns the unsubscribe function. */
  onTip(listener: TipListener): () => void {
    return this.tips.onTip(listener);
  }

  /** Opens the blocknotify socket, fetches a first template (if the node answers) and starts the loops. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    if (this.blocknotify) {
      try {
        const port = await this.blocknotify.listen(this.options.blocknotifyPort ?? 0);
        this.logger.info({ port }, 'listening for blocknotify on 127.0.0.1');
      } catch (err) {
        this.running = false;
        throw new Error(
          `cannot listen for blocknotify on 127.0.0.1:${this.options.blocknotifyPort}: ${(err as Error).message}`,
        );
      }
    }
    await this.trigger('start');
    if (this.opts.pollIntervalMs > 0) this.every(this.opts.pollIntervalMs, () => this.poll());
    this.every(Math.min(1_000, this.opts.refreshIntervalMs), () => this.refreshIfDue());
    this.every(this.healthCheckMs(), () => this.health.check());
    this.longpoll.start();
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.datagrams.stop();
    this.longpoll.stop();
    await this.blocknotify?.close();
    await this.fetching;
  }

  /** The -blocknotify command for this watcher's node (needs blocknotifyPort and start()). */
  blocknotifyCommand(): string | undefined {
    const port = this.blocknotify?.port();
    return port === undefined ? undefined : blocknotifyCommand(port, this.node.coin);
  }

  status(): WatcherStatus {
    return {
      coin: this.node.coin,
      running: this.running,
      height: this.height,
      tipHash: this.tipHash,
      lastTemplateAt: this.lastTemplateAt,
      templatesEmitted: this.templatesEmitted,
      lastError: this.lastError,
      consecutiveFailures: this.failures,
      blocknotifyPort: this.blocknotify?.port() ?? null,
      longpoll: this.opts.longpoll,
      pollIntervalMs: this.opts.pollIntervalMs,
      newTipsBy: this.newTipsBy(),
      ...this.availabilityStatus(),
    };
  }

  private availabilityStatus(): Pick<WatcherStatus, 'up' | 'downSince'> {
    const availability = this.health.availability();
    return { up: availability.up, downSince: availability.up ? null : availability.since };
  }

  /**
   * Fetches a template now (serialized); concurrent triggers collapse into one follow-up fetch.
   * `ready`: a template already in hand (a longpoll answer), emitted without another call.
   */
  trigger(reason: TemplateReason, ready?: NodeTemplate): Promise<void> {
    if (!this.running) return Promise.resolve();
    if (this.fetching) {
      // A longpoll answer is the node's newest template: out now, not after the fetch in flight.
      if (ready) this.emit(reason, ready);
      else if (this.queued === undefined || reason !== 'refresh') this.queued = reason;
      return this.fetching;
    }
    this.fetching = this.fetchAndEmit(reason, ready).finally(() => {
      this.fetching = undefined;
      const next = this.queued;
      this.queued = undefined;
      if (next !== undefined) void this.trigger(next);
    });
    return this.fetching;
  }

  private async fetchAndEmit(reason: TemplateReason, ready: NodeTemplate | undefined): Promise<void> {
    const sentAt = Date.now();
    if (ready) {
      this.clearError(sentAt);
      this.emit(reason, ready);
      return;
    }
    let template: NodeTemplate;
    const announcements = this.tips.announcements;
    const emitted = this.templatesEmitted;
    try {
      template = await this.node.getBlockTemplate();
    } catch (err) {
      this.recordError('getblocktemplate failed', err);
      return;
    }
    this.clearError(sentAt);
    // Something newer came while this was asked (a tip announced, a longpoll answer sent): an
    // answer not on that tip is older than the miners' work. The fetch queued behind it follows.
    const prev = template.previousblockhash;
    if (
      (announcements !== this.tips.announcements && prev !== this.tips.announced) ||
      (emitted !== this.templatesEmitted && prev !== this.tipHash)
    ) {
      this.queued ??= reason;
      return;
    }
    this.emit(reason, template);
  }

  private emit(reason: TemplateReason, template: NodeTemplate): void {
    const newTip = template.previousblockhash !== this.tipHash;
    // A notification for a tip we already have is not news, nor is a longpoll answer whose
    // template (longpollid = tip + mempool generation) we already sent; refreshes always are.
    if (!newTip && (reason === 'blocknotify' || reason === 'poll')) return;
    if (
      !newTip &&
      reason === 'longpoll' &&
      template.longpollid !== undefined &&
      template.longpollid === this.longpollId
    )
      return;
    if (newTip && this.tipHash !== null) this.datagrams.expect(template.previousblockhash);
    this.tipHash = template.previousblockhash;
    this.height = template.height - 1;
    this.longpollId = template.longpollid ?? this.longpollId;
    this.lastTemplateAt = new Date();
    this.templatesEmitted++;
    if (newTip) this.logger.info({ height: this.height, tip: this.tipHash, reason }, 'new tip');
    for (const listener of this.listeners) {
      try {
        listener(template, { newTip, reason });
      } catch (err) {
        this.logger.error({ err }, 'a template listener threw');
      }
    }
  }

  private onBlocknotify(coin: string, hash: string): void {
    if (coin !== this.node.coin) {
      this.logger.debug({ coin, hash }, 'blocknotify for another coin ignored');
      return;
    }
    this.datagrams.heard(hash);
    if (hash !== this.tipHash) void this.announceThenFetch(hash, 'blocknotify');
  }

  private newTipsBy(): NewTipSource {
    if (this.datagrams.works) return 'blocknotify';
    if (this.longpoll.held) return 'longpoll';
    return this.opts.pollIntervalMs > 0 ? 'poll' : 'refresh';
  }

  private longpollWanted(): boolean {
    return this.opts.longpoll && !(this.datagrams.works && this.opts.pollIntervalMs > 0);
  }

  /** The new tip's header first (TipAnnouncer.announceFirst), then its template. */
  private async announceThenFetch(hash: string, reason: TemplateReason): Promise<void> {
    await this.tips.announceFirst(hash, reason);
    await this.trigger(reason);
  }

  private async poll(): Promise<void> {
    if (this.fetching || this.polling || this.backingOff()) return;
    this.polling = true;
    const sentAt = Date.now();
    try {
      const best = await this.node.getBestBlockHash({ timeoutMs: 5_000 });
      this.health.answered(sentAt);
      if (best !== this.tipHash) {
        await this.announceThenFetch(best, 'poll');
      }
    } catch (err) {
      this.recordError('getbestblockhash failed', err);
    } finally {
      this.polling = false;
    }
  }

  private refreshIfDue(): void {
    const last = this.lastTemplateAt?.getTime() ?? 0;
    if (Date.now() - last >= this.opts.refreshIntervalMs && !this.backingOff()) void this.trigger('refresh');
  }

  /** Ten checks a second (a comparison each): work stops within 0.1 s of the silence limit. */
  private healthCheckMs(): number {
    return Math.min(100, Math.max(50, this.opts.silenceMs / 4));
  }

  private every(ms: number, task: () => void | Promise<void>): void {
    this.timers.push(setInterval(() => void task(), ms));
  }

  private backoffMs(): number {
    const cap = this.health.availability().up
      ? this.opts.maxBackoffMs
      : Math.min(this.opts.maxBackoffMs, this.opts.downBackoffMs);
    return Math.min(cap, 250 * 2 ** Math.min(this.failures, 10));
  }

  /** After repeated failures, the poll and refresh loops skip turns until the back-off passes. */
  private backingOff(): boolean {
    if (this.failures < 3 || this.lastError === null) return false;
    return Date.now() - this.lastError.at.getTime() < this.backoffMs();
  }

  private recordError(what: string, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.failures++;
    this.lastError = { message, at: new Date() };
    const log = { err: message, failures: this.failures };
    if (this.failures === 1 || this.failures % 20 === 0) this.logger.warn(log, what);
    else this.logger.debug(log, what);
  }

  private clearError(sentAt: number): void {
    this.health.answered(sentAt);
    if (this.failures > 0) this.logger.info({ failures: this.failures }, 'node answers again');
    this.failures = 0;
  }
}
