import { randomUUID } from 'node:crypto';
import type { JetStreamClient, JetStreamManager, NatsConnection } from 'nats';
import type { CoinId } from '../config/index.js';
import type { Logger } from '../logger.js';
import { blockLine, rejectLine, shareLine } from '../shares/batch.js';
import type { HeldSocket } from '../shares/journal.js';
import type { ShareSink } from '../shares/sink.js';
import type {
  AcceptedShare,
  FoundBlockRecord,
  MinerRef,
  RejectCount,
  RejectReason,
} from '../shares/types.js';
import {
  ensureRegionalStream,
  ensureShareLogStream,
  publishSubject,
  regionalStreamName,
  type DistributedConfig,
  type ShareLogKind,
} from './stream.js';

export interface ShareLogPublisherOptions {
  /** The publisher's own connection: closed by stop(). */
  nc: NatsConnection;
  config: DistributedConfig;
  logger: Logger;
  /** Names this node in message ids (with the region and a per-start id). */
  nodeId: string;
  /** Pause between two attempts of one publish (default 250 ms). */
  retryMs?: number;
  /** Reject counts are published this often (default 1 s). */
  rejectFlushMs?: number;
  /** How long stop() waits for JetStream to take what is in flight (default 30 s). */
  drainMs?: number;
  /** A node on its own leaf server asks the core this often how far it has sourced (default 1 s). */
  coreCheckMs?: number;
}

export interface ShareLogPublisherStats {
  messages: number;
  sharesAcked: number;
  /** Shares whose miners' connections were dropped: JetStream never confirmed them. */
  sharesFailed: number;
  /** Shares published and not yet confirmed (the backlog that refuses submits when full). */
  sharesWaiting: number;
  /**
   * A node on its own leaf server: shares its regional stream stored that the core's stream has
   * not sourced yet, as far as the core last answered (they count toward the backlog too).
   */
  sharesAwaitingCore: number;
  retries: number;
  /** Publishes JetStream recognised as already stored (a retry whose first attempt had landed). */
  duplicates: number;
}

interface Outgoing {
  subject: string;
  msgId: string;
  data: Uint8Array;
}

/** A message is cut at this size (NATS refuses payloads over its max_payload, 1 MiB by default). */
const MAX_MESSAGE_BYTES = 256 * 1024;
const MINUTE = 60_000;
const encoder = new TextEncoder();

/**
 * The share sink of a regional Stratum node: every accepted share goes to JetStream
 * (manjam.shares.<coin>.<region>), the records of one turn of the event loop in one message per
 * coin, and the miner's socket stays corked until JetStream's publish ack says the stream stored
 * it (on every replica's quorum). A publish that fails (a server down, a leader election, a lost
 * link) is sent again with the same message id, which JetStream's duplicate window stores once;
 * the reply waits meanwhile. Past `maxBacklogShares` unconfirmed shares, refusal() turns new
 * submits away. Reject counts go out once a second, found blocks at once (awaited).
 */
export class ShareLogPublisher implements ShareSink {
  private readonly js: JetStreamClient;
  private readonly idPrefix: string;
  private seq = 0;
  private readonly open = new Map<CoinId, { lines: string; shares: number }>();
  private ready: Outgoing[] = [];
  private turnShares = 0;
  private held = new Set<HeldSocket>();
  private scheduled = false;
  private readonly rejects = new Map<string, RejectCount>();
  private rejectTimer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopping = false;
  private closed = false;
  /** A leaf node's own messages not yet known at the core: regional stream sequence and shares, in order. */
  private awaitingCore: { seq: number; shares: number }[] = [];
  private coreTimer: NodeJS.Timeout | undefined;
  private checkingCore = false;
  readonly stats: ShareLogPublisherStats = {
    messages: 0,
    sharesAcked: 0,
    sharesFailed: 0,
    sharesWaiting: 0,
    sharesAwaitingCore: 0,
    retries: 0,
    duplicates: 0,
  };

  constructor(private readonly options: ShareLogPublisherOptions) {
    const domain = options.config.domain;
    this.js = options.nc.jetstream({
      timeout: options.config.publishTimeoutMs,
      ...(domain === undefined ? {} : { domain }),
    });
    this.idPrefix = `${options.config.region}.${options.nodeId}.${randomUUID().slice(0, 8)}`;
  }

  async start(): Promise<void> {
    const { nc, config } = this.options;
    if (config.domain === undefined) await ensureShareLogStream(await nc.jetstreamManager(), config);
    else {
      const local = await nc.jetstreamManager({ domain: config.domain });
      await ensureRegionalStream(local, config);
      const core = await nc.jetstreamManager({ domain: config.coreDomain, checkAPI: false, timeout: 2_000 });
      this.coreTimer ??= setInterval(
        () => void this.checkCore(local, core),
        this.options.coreCheckMs ?? 1_000,
      );
      this.coreTimer.unref();
    }
    this.rejectTimer ??= setInterval(() => this.flushRejects(), this.options.rejectFlushMs ?? 1_000);
    this.rejectTimer.unref();
  }

  addAccepted(share: AcceptedShare, socket?: HeldSocket): void {
    const coin = share.miner.coin;
    let buffer = this.open.get(coin);
    if (!buffer) {
      buffer = { lines: '', shares: 0 };
      this.open.set(coin, buffer);
    }
    buffer.lines += shareLine(share);
    buffer.shares++;
    this.turnShares++;
    this.stats.sharesWaiting++;
    if (buffer.lines.length >= MAX_MESSAGE_BYTES) {
      this.ready.push(this.message('shares', coin, buffer.lines));
      this.open.delete(coin);
    }
    if (socket && !this.held.has(socket)) {
      this.held.add(socket);
      socket.cork();
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flushTurn());
    }
  }

  addRejected(miner: MinerRef, reason: RejectReason, atMs: number): void {
    const bucketMs = Math.floor(atMs / MINUTE) * MINUTE;
    const key = `${miner.workerKey}|${bucketMs}|${reason}`;
    const existing = this.rejects.get(key);
    if (existing) existing.count++;
    else this.rejects.set(key, { miner, bucketMs, reason, count: 1 });
  }

  async addBlock(block: FoundBlockRecord): Promise<void> {
    const message = this.message('blocks', block.miner.coin, blockLine(block));
    await this.track(this.publish(message));
  }

  /** Shares published and not confirmed, and those the core's stream has not sourced yet. */
  backlog(): number {
    return this.stats.sharesWaiting + this.stats.sharesAwaitingCore;
  }

  refusal(): string | undefined {
    if (this.stopping) return 'Stratum node is stopping; share not stored';
    const max = this.options.config.maxBacklogShares;
    const backlog = this.stats.sharesWaiting + this.stats.sharesAwaitingCore;
    if (backlog >= max)
      return `Share log backlog full (${backlog} shares waiting for storage); share not stored, try again shortly`;
    return undefined;
  }

  /** Publishes what is buffered, waits (up to drainMs) for JetStream to confirm it, then closes the connection. */
  async stop(): Promise<void> {
    if (this.closed) return;
    this.stopping = true;
    clearInterval(this.rejectTimer);
    clearInterval(this.coreTimer);
    this.flushTurn();
    this.flushRejects();
    const drained = Promise.allSettled([...this.inFlight]);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>(
      (resolve) => (timer = setTimeout(() => resolve('late'), this.options.drainMs ?? 30_000)),
    );
    if ((await Promise.race([drained, late])) === 'late')
      this.options.logger.error(
        { sharesWaiting: this.stats.sharesWaiting },
        'share log: JetStream did not confirm every share before stop; their miners get no answer',
      );
    clearTimeout(timer);
    this.closed = true;
    await this.options.nc.close();
    await Promise.allSettled([...this.inFlight]);
  }

  /** One message per coin for this turn's shares; the sockets held by them are let go on its ack. */
  private flushTurn(): void {
    this.scheduled = false;
    for (const [coin, buffer] of this.open) this.ready.push(this.message('shares', coin, buffer.lines));
    this.open.clear();
    const messages = this.ready;
    const sockets = this.held;
    const count = this.turnShares;
    this.ready = [];
    this.held = new Set();
    this.turnShares = 0;
    if (messages.length === 0) return;
    const sent = Promise.all(messages.map((m) => this.publish(m))).then(
      (seqs) => {
        this.stats.sharesAcked += count;
        if (this.options.config.domain !== undefined) {
          // Shares are counted on the turn's last message: the core has them all once it has that one.
          this.awaitingCore.push({ seq: Math.max(...seqs), shares: count });
          this.stats.sharesAwaitingCore += count;
        }
        for (const socket of sockets) socket.uncork();
      },
      (error: unknown) => {
        this.stats.sharesFailed += count;
        this.options.logger.error(
          { err: error, shares: count, connections: sockets.size },
          'share log: shares not confirmed by JetStream; their miners are disconnected unanswered',
        );
        for (const socket of sockets) socket.destroy();
      },
    );
    void this.track(sent.finally(() => (this.stats.sharesWaiting -= count)));
  }

  private flushRejects(): void {
    if (this.rejects.size === 0) return;
    const byCoin = new Map<CoinId, string>();
    for (const r of this.rejects.values())
      byCoin.set(r.miner.coin, (byCoin.get(r.miner.coin) ?? '') + rejectLine(r));
    this.rejects.clear();
    for (const [coin, lines] of byCoin) {
      const sent = this.publish(this.message('rejects', coin, lines)).catch((error: unknown) =>
        this.options.logger.warn({ err: error, coin }, 'share log: reject counts not published'),
      );
      void this.track(sent);
    }
  }

  private message(kind: ShareLogKind, coin: CoinId, lines: string): Outgoing {
    this.seq++;
    return {
      subject: publishSubject(this.options.config, kind, coin),
      msgId: `${this.idPrefix}.${this.seq}`,
      data: encoder.encode(lines),
    };
  }

  /**
   * How far the core's stream has sourced this region's stream: the region's messages in the core
   * (asked first) against the regional stream's last sequence; what lies past that awaits the
   * core. A core that does not answer (the link is cut) leaves the last answer standing.
   */
  private async checkCore(local: JetStreamManager, core: JetStreamManager): Promise<void> {
    if (this.checkingCore || this.awaitingCore.length === 0) return;
    this.checkingCore = true;
    const { config } = this.options;
    const domain = config.domain as string;
    try {
      const atCore = await core.streams.info(config.stream, { subjects_filter: `manjam-${domain}.>` });
      const region = await local.streams.info(regionalStreamName(config, domain));
      const inCore = Object.values(atCore.state.subjects ?? {}).reduce((n, c) => n + c, 0);
      const sourcedThrough = region.state.last_seq - (region.state.messages - inCore);
      while (this.awaitingCore[0] && this.awaitingCore[0].seq <= sourcedThrough) {
        const done = this.awaitingCore.shift();
        this.stats.sharesAwaitingCore -= done?.shares ?? 0;
      }
    } catch (error) {
      this.options.logger.debug({ err: error }, 'share log: the core did not say how far it has sourced');
    } finally {
      this.checkingCore = false;
    }
  }

  /** Sends until JetStream acknowledges (same message id every time), or the publisher is closed; the stream sequence. */
  private async publish(message: Outgoing): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        const ack = await this.js.publish(message.subject, message.data, {
          msgID: message.msgId,
          timeout: this.options.config.publishTimeoutMs,
        });
        if (ack.duplicate) this.stats.duplicates++;
        else this.stats.messages++;
        return ack.seq;
      } catch (error) {
        if (this.closed) throw error;
        this.stats.retries++;
        if (attempt === 1 || attempt % 20 === 0)
          this.options.logger.warn(
            { err: error, msgId: message.msgId, attempt },
            'share log: publish not confirmed; sending again',
          );
        await new Promise((resolve) => setTimeout(resolve, this.options.retryMs ?? 250));
      }
    }
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }
}
