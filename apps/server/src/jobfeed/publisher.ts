// The core's side of the job feed, the same for every coin family: each coin's work goes to
// JetStream (manjam.jobs.<coin>.work) as its family's codec gives it, the coin's state once a
// second (manjam.jobs.<coin>.state), and found blocks sent by the regions are submitted to every
// node of the coin.
import { randomUUID } from 'node:crypto';
import type { JetStreamClient, Msg, NatsConnection, Subscription } from 'nats';
import type { CoinId } from '../config/index.js';
import type { Logger } from '../logger.js';
import type { BlockSubmitResult, SourceAvailability } from '../stratum/source.js';
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
  type CoinIdentity,
  type DistributedConfig,
  type StateMessage,
} from './messages.js';

/** One node-backed coin on the feed, through its family's codec. */
export interface FeedChannel<Body extends object = object> {
  readonly coin: CoinId;
  readonly network: string;
  /** The address every template of the coin pays. */
  readonly poolAddress: string;
  /** The coin's current work (published at start), undefined before the first template. */
  current(): Body | undefined;
  /** Calls `listener` with each new work message body; returns the unsubscribe. */
  onWork(listener: (body: Body) => void): () => void;
  /** Whether a node backs the coin's work (absent: always). */
  availability?(): SourceAvailability;
  onAvailability?(listener: () => void): () => void;
  /** Submits a region's found block to the coin's node(s). */
  submitBlock(blockHex: string, expected: { height: number; hash: string }): Promise<BlockSubmitResult>;
}

export interface FeedPublisherOptions {
  /** The publisher's own connection: closed by stop(). */
  nc: NatsConnection;
  config: DistributedConfig;
  channels: FeedChannel[];
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

export class FeedPublisher {
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

  constructor(private readonly options: FeedPublisherOptions) {
    this.js = options.nc.jetstream({ timeout: options.config.publishTimeoutMs });
  }

  async start(): Promise<void> {
    const { nc, config, channels } = this.options;
    await ensureJobStream(await nc.jetstreamManager(), config);
    for (const channel of channels) {
      this.offs.push(channel.onWork((body) => this.publishWork(channel, body)));
      const offAvailability = channel.onAvailability?.(() => this.publishState(channel));
      if (offAvailability) this.offs.push(offAvailability);
      // Only the core answers; a queue group keeps it to one answer should two core processes listen.
      this.subs.push(
        nc.subscribe(submitSubject(channel.coin), {
          queue: 'manjam-core',
          callback: (error, msg) => {
            if (!error) void this.answerSubmit(channel, msg);
          },
        }),
        nc.subscribe(submitStatusSubject(channel.coin), {
          queue: 'manjam-core',
          callback: (error, msg) => {
            if (!error) this.answerStatus(msg);
          },
        }),
      );
      const current = channel.current();
      if (current) this.publishWork(channel, current);
      this.publishState(channel);
    }
    this.timer = setInterval(() => {
      for (const channel of channels) this.publishState(channel);
    }, this.options.heartbeatMs ?? HEARTBEAT_MS);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    for (const off of this.offs.splice(0)) off();
    for (const sub of this.subs.splice(0)) sub.unsubscribe();
    await this.options.nc.drain().catch(() => undefined);
  }

  private identity(channel: FeedChannel, workId: string): CoinIdentity {
    return {
      coin: channel.coin,
      network: channel.network,
      poolAddress: channel.poolAddress,
      workId,
      publishedAt: Date.now(),
    };
  }

  private publishWork(channel: FeedChannel, body: object): void {
    const workId = `${this.pid}:${++this.counter}`;
    this.lastWorkId.set(channel.coin, workId);
    this.stats.workPublished++;
    this.publish(workSubject(channel.coin), { ...this.identity(channel, workId), ...body });
    // The state names the work just published, so a region that missed it fetches it at once.
    this.publishState(channel);
  }

  private publishState(channel: FeedChannel): void {
    const availability = channel.availability?.() ?? UP;
    const message: StateMessage = {
      ...this.identity(channel, this.lastWorkId.get(channel.coin) ?? ''),
      up: availability.up,
      since: availability.since.getTime(),
      message: availability.message,
    };
    this.stats.statesPublished++;
    this.publish(stateSubject(channel.coin), message);
  }

  private publish(subject: string, message: CoinIdentity): void {
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

  private async answerSubmit(channel: FeedChannel, msg: Msg): Promise<void> {
    const request = decode(submitRequestSchema, msg.data);
    if (!request) {
      this.options.logger.warn({ subject: msg.subject }, 'a block submit that is not one: ignored');
      return;
    }
    const expected = { height: request.height, hash: request.hash };
    // A block sent again (its answer lost, or asked while still on the nodes) is submitted once.
    const { verdict, again } = this.regionBlocks.submit(request.hash, () =>
      channel.submitBlock(request.blockHex, expected),
    );
    const result = await verdict;
    if (!again) this.stats.blocksSubmitted++;
    this.options.logger.info(
      { coin: channel.coin, region: request.region, ...expected, ...result, again },
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
