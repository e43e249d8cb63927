// The core's side of the job feed: every template and tip of its node-backed sources goes to
// JetStream (manjam.jobs.<coin>.work), the coin's state once a second (manjam.jobs.<coin>.state),
// and found blocks sent by the regions are submitted to every node of the coin.
import { randomUUID } from 'node:crypto';
import type { Network } from '@manjam/protocol';
import type { JetStreamClient, Msg, NatsConnection, Subscription } from 'nats';
import type { Logger } from '../../../logger.js';
import type { SourceAvailability, TemplateSource } from '../source.js';
import { RegionBlocks } from './core-blocks.js';
import {
  HEARTBEAT_MS,
  decode,
  encode,
  ensureJobStream,
  stateSubject,
  statusRequestSchema,
  submitRequestSchema,
  submitStatusSubject,
  submitSubject,
  workSubject,
  type DistributedConfig,
  type StateMessage,
  type WorkMessage,
} from './messages.js';

export interface FeedCoin {
  /** A node-backed source (availability follows its nodes' silence limit). */
  source: TemplateSource;
  network: Network;
}

export interface JobFeedPublisherOptions {
  /** The publisher's own connection: closed by stop(). */
  nc: NatsConnection;
  config: DistributedConfig;
  coins: FeedCoin[];
  logger: Logger;
  heartbeatMs?: number;
}

export interface JobFeedStats {
  workPublished: number;
  statesPublished: number;
  publishFailures: number;
  blocksSubmitted: number;
}

const UP: SourceAvailability = { up: true, since: new Date(0), message: 'node answers' };

export class JobFeedPublisher {
  private readonly js: JetStreamClient;
  private readonly pid = randomUUID().slice(0, 8);
  private counter = 0;
  private readonly lastWorkId = new Map<string, string>();
  private readonly offs: (() => void)[] = [];
  private readonly subs: Subscription[] = [];
  private timer: NodeJS.Timeout | undefined;
  private failing = false;
  private readonly regionBlocks = new RegionBlocks();
  readonly stats: JobFeedStats = {
    workPublished: 0,
    statesPublished: 0,
    publishFailures: 0,
    blocksSubmitted: 0,
  };

  constructor(private readonly options: JobFeedPublisherOptions) {
    this.js = options.nc.jetstream({ timeout: options.config.publishTimeoutMs });
  }

  async start(): Promise<void> {
    const { nc, config, coins } = this.options;
    await ensureJobStream(await nc.jetstreamManager(), config);
    for (const coin of coins) {
      const { source } = coin;
      this.offs.push(source.onTemplate((template, info) => this.publishWork(coin, { template, info })));
      const offTip = source.onTip?.((tip, info) => {
        const template = source.current();
        if (template) this.publishWork(coin, { template, info, tip });
      });
      if (offTip) this.offs.push(offTip);
      const offAvailability = source.onAvailability?.(() => this.publishState(coin));
      if (offAvailability) this.offs.push(offAvailability);
      // Only the core answers; a queue group keeps it to one answer should two core processes listen.
      this.subs.push(
        nc.subscribe(submitSubject(source.coin), {
          queue: 'manjam-core',
          callback: (error, msg) => {
            if (!error) void this.answerSubmit(coin, msg);
          },
        }),
        nc.subscribe(submitStatusSubject(source.coin), {
          queue: 'manjam-core',
          callback: (error, msg) => {
            if (!error) this.answerStatus(msg);
          },
        }),
      );
      const current = source.current();
      if (current) this.publishWork(coin, { template: current, info: { newTip: true, reason: 'start' } });
      this.publishState(coin);
    }
    this.timer = setInterval(() => {
      for (const coin of coins) this.publishState(coin);
    }, this.options.heartbeatMs ?? HEARTBEAT_MS);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    for (const off of this.offs.splice(0)) off();
    for (const sub of this.subs.splice(0)) sub.unsubscribe();
    await this.options.nc.drain().catch(() => undefined);
  }

  private identity({ source, network }: FeedCoin, workId: string) {
    return {
      coin: source.coin,
      network,
      poolAddress: source.poolAddress,
      workId,
      publishedAt: Date.now(),
    };
  }

  private publishWork(coin: FeedCoin, work: Pick<WorkMessage, 'template' | 'info' | 'tip'>): void {
    const workId = `${this.pid}:${++this.counter}`;
    this.lastWorkId.set(coin.source.coin, workId);
    const message: WorkMessage = { ...this.identity(coin, workId), ...work };
    this.stats.workPublished++;
    this.publish(workSubject(coin.source.coin), message);
    // The state names the work just published, so a region that missed it fetches it at once.
    this.publishState(coin);
  }

  private publishState(coin: FeedCoin): void {
    const availability = coin.source.availability?.() ?? UP;
    const message: StateMessage = {
      ...this.identity(coin, this.lastWorkId.get(coin.source.coin) ?? ''),
      up: availability.up,
      since: availability.since.getTime(),
      message: availability.message,
    };
    this.stats.statesPublished++;
    this.publish(stateSubject(coin.source.coin), message);
  }

  private publish(subject: string, message: WorkMessage | StateMessage): void {
    const data = encode(message);
    const limit = this.options.nc.info?.max_payload ?? Infinity;
    if (data.length > limit) {
      // A full mainnet template can pass NATS's default 1 MiB: the servers' max_payload must allow it.
      this.options.logger.error(
        { subject, bytes: data.length, maxPayload: limit },
        'job feed message larger than the NATS max_payload: not published (raise max_payload)',
      );
      this.stats.publishFailures++;
      return;
    }
    this.js.publish(subject, data).then(
      () => {
        if (!this.failing) return;
        this.failing = false;
        this.options.logger.info({ subject }, 'job feed publishes again');
      },
      (error: unknown) => {
        this.stats.publishFailures++;
        if (this.failing) return;
        this.failing = true;
        // The regions hear silence and stop their miners after the silence limit: say why here.
        this.options.logger.error({ err: error, subject }, 'job feed publish failed');
      },
    );
  }

  private async answerSubmit({ source }: FeedCoin, msg: Msg): Promise<void> {
    const request = decode(submitRequestSchema, msg.data);
    if (!request) {
      this.options.logger.warn({ subject: msg.subject }, 'a block submit that is not one: ignored');
      return;
    }
    const expected = { height: request.height, hash: request.hash };
    // A block sent again (its answer lost, or asked while still on the nodes) is submitted once.
    const { verdict, again } = this.regionBlocks.submit(request.hash, () =>
      source.submitBlock(request.blockHex, expected),
    );
    const result = await verdict;
    if (!again) this.stats.blocksSubmitted++;
    this.options.logger.info(
      { coin: source.coin, region: request.region, ...expected, ...result, again },
      again
        ? "a region's block sent again: answered with its verdict"
        : "a region's block submitted to the core's nodes",
    );
    msg.respond(encode(result));
  }

  private answerStatus(msg: Msg): void {
    const request = decode(statusRequestSchema, msg.data);
    if (!request) {
      this.options.logger.warn({ subject: msg.subject }, 'a block status request that is not one: ignored');
      return;
    }
    msg.respond(encode(this.regionBlocks.status(request.hash)));
  }
}
