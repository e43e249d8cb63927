import { AckPolicy, DeliverPolicy, nanos, type ConsumerInfo, type JsMsg, type NatsConnection } from 'nats';
import type { Database } from '../db/index.js';
import type { PoolEvents } from '../events.js';
import type { Logger } from '../logger.js';
import { applyLine, newBatch, type ShareBatch } from '../shares/batch.js';
import { newIdCache, persistBatch } from '../shares/persist.js';
import { emitPersisted } from '../shares/persisted-events.js';
import { SHARE_SLOT_MS } from '../shares/slots.js';
import { ensureShareLogStream, type DistributedConfig } from './stream.js';

export interface ShareLogConsumerOptions {
  /** The consumer's own connection: closed by stop(). */
  nc: NatsConnection;
  db: Database;
  events: PoolEvents;
  config: DistributedConfig;
  logger: Logger;
  /**
   * Messages asked for per pull, written in one transaction (default 512: all written well
   * within the ack wait).
   */
  pullSize?: number;
  /**
   * How long a pull gathers messages before they are written (default 1,000 ms). A worker's
   * shares of one slot gathered in one pull become one row, so a longer gather means fewer rows.
   */
  gatherMs?: number;
  /** Slot rows' length (default SHARE_SLOT_MS, 10 s: shares/slots.ts). */
  slotMs?: number;
  /** Pause after a failed database write or pull (default 500 ms). */
  retryMs?: number;
}

export interface ShareLogConsumerStats {
  /** Messages stored (each once) and acknowledged. */
  messages: number;
  shares: number;
  /** Messages delivered again whose batch was already stored (skipped, acknowledged again). */
  duplicates: number;
  /** Database writes that failed (retried). */
  failures: number;
  /** Unreadable messages, acknowledged and logged (kept in the stream for max_age). */
  unreadable: number;
}

const decoder = new TextDecoder();
/**
 * A message delivered and not acked for this long (plus the gather) goes to the next pull: what a
 * dead leader had pulled reaches the standby that took over after at most this (written once:
 * share_batches).
 */
const ACK_WAIT_MS = 15_000;
const DEFAULT_GATHER_MS = 1_000;
const DEFAULT_PULL_MESSAGES = 512;

/**
 * The core's side of the share log: a durable pull consumer that writes what it pulls (up to 512
 * messages gathered for up to a second) as one share batch (shares/persist.ts, the local
 * writer's own path) claiming every message's id in the same transaction, and acks only after
 * the commit. A message delivered again (an ack lost, a leader that died before its ack) finds
 * its id in share_batches: the pull is then written message by message, and the stored one
 * skipped, so every share is stored once. A failing database holds the consumer on the same
 * message.
 *
 * Accepted shares are stored as slot rows (shares/slots.ts): one row per worker, slot and
 * difficulty in a pull however many shares it sent, so database writes grow with workers rather
 * than shares. Found blocks keep a row each; the minute statistics are written as before.
 */
export class ShareLogConsumer {
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: () => void = () => undefined;
  private readonly ids = newIdCache();
  readonly stats: ShareLogConsumerStats = {
    messages: 0,
    shares: 0,
    duplicates: 0,
    failures: 0,
    unreadable: 0,
  };

  private readonly slotMs: number;
  private readonly gatherMs: number;
  private readonly pullSize: number;

  constructor(private readonly options: ShareLogConsumerOptions) {
    this.slotMs = options.slotMs ?? SHARE_SLOT_MS;
    this.gatherMs = options.gatherMs ?? DEFAULT_GATHER_MS;
    this.pullSize = options.pullSize ?? DEFAULT_PULL_MESSAGES;
  }

  async start(): Promise<void> {
    const { nc, config } = this.options;
    const jsm = await nc.jetstreamManager();
    await ensureShareLogStream(jsm, config);
    // A pulled message waits for the gather, then for its write: the ack wait covers both.
    const limits = {
      ack_wait: nanos(ACK_WAIT_MS + this.gatherMs),
      max_ack_pending: Math.max(4_096, this.pullSize),
    };
    let existing: ConsumerInfo | undefined;
    try {
      existing = await jsm.consumers.info(config.stream, config.consumer);
    } catch {
      await jsm.consumers.add(config.stream, {
        durable_name: config.consumer,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ...limits,
      });
    }
    if (
      existing &&
      (existing.config.ack_wait !== limits.ack_wait ||
        existing.config.max_ack_pending !== limits.max_ack_pending)
    )
      await jsm.consumers.update(config.stream, config.consumer, limits);
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    await this.options.nc.close();
  }

  private async run(): Promise<void> {
    const { nc, config, logger } = this.options;
    const consumer = await nc.jetstream().consumers.get(config.stream, config.consumer);
    while (!this.stopped) {
      try {
        const messages = await consumer.fetch({ max_messages: this.pullSize, expires: this.gatherMs });
        const pulled: JsMsg[] = [];
        for await (const message of messages) pulled.push(message);
        if (pulled.length > 0 && !this.stopped && !(await this.storeTogether(pulled)))
          for (const message of pulled) {
            if (this.stopped) break;
            if (await this.store(message)) message.ack();
          }
      } catch (error) {
        if (this.stopped) break;
        logger.warn({ err: error }, 'share log: pull failed; retrying');
        await this.pause();
      }
    }
  }

  /**
   * Writes a whole pull in one transaction (one batch claiming every message id) and acks it;
   * false when that did not work (a message already stored, a database error): then one by one.
   */
  private async storeTogether(pulled: JsMsg[]): Promise<boolean> {
    const batches: ShareBatch[] = [];
    for (const message of pulled) {
      const batch = this.decode(message);
      if (batch) batches.push(batch);
    }
    const [first, ...rest] = batches;
    if (!first || rest.length === 0) return false;
    const merged: ShareBatch = {
      id: first.id,
      shares: batches.flatMap((b) => b.shares),
      rejects: batches.flatMap((b) => b.rejects),
      blocks: batches.flatMap((b) => b.blocks),
    };
    try {
      const result = await persistBatch(this.options.db, merged, this.ids, {
        alsoClaim: rest.map((b) => b.id),
        slotMs: this.slotMs,
      });
      if (result.duplicate) return false;
      this.stats.messages += batches.length;
      this.stats.shares += merged.shares.length;
      emitPersisted(this.options.events, result);
    } catch {
      return false;
    }
    for (const message of pulled) message.ack();
    return true;
  }

  /** Writes one message's batch; false when stopped before the database took it (it is delivered again). */
  private async store(message: JsMsg): Promise<boolean> {
    const batch = this.decode(message);
    if (!batch) return true;
    while (!this.stopped) {
      try {
        const result = await persistBatch(this.options.db, batch, this.ids, { slotMs: this.slotMs });
        if (result.duplicate) this.stats.duplicates++;
        else {
          this.stats.messages++;
          this.stats.shares += batch.shares.length;
          emitPersisted(this.options.events, result);
        }
        return true;
      } catch (error) {
        this.stats.failures++;
        this.options.logger.warn(
          { err: error, msgId: batch.id, shares: batch.shares.length },
          'share log: batch not written to the database; retrying',
        );
        message.working();
        await this.pause();
      }
    }
    return false;
  }

  /** The message's records as a batch whose id is the message id (stream sequence when it has none). */
  private decode(message: JsMsg): ShareBatch | undefined {
    const id = message.headers?.get('Nats-Msg-Id') || `${this.options.config.stream}:${message.seq}`;
    const batch: ShareBatch = { ...newBatch(), id };
    try {
      const lines = decoder.decode(message.data).split('\n');
      for (const line of lines) if (line !== '') applyLine(batch, line);
      return batch;
    } catch (error) {
      this.stats.unreadable++;
      this.options.logger.error(
        { err: error, subject: message.subject, seq: message.seq },
        'share log: unreadable message skipped',
      );
      return undefined;
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.options.retryMs ?? 500);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
