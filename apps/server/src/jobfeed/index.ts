// The job feed: the core publishes each coin's work on JetStream, and a region
// without coin nodes of its own (`distributed.jobsFromCore`) mines on it. This folder is the part
// every coin family shares (subjects, stream, state and silence rule, found blocks back to the
// core); each family brings a codec for its work message (coins/<family>/jobfeed).
import type { NatsConnection } from 'nats';
import { ConfigError, type CoinId, type Config } from '../config/index.js';
import type { Logger } from '../logger.js';
import { connectShareLog } from '../sharelog/stream.js';
import { CoreSubmitter } from './core-submit.js';
import { FeedPublisher, type FeedChannel } from './publisher.js';

export { CoreSubmitter };
export { FeedFollower } from './follower.js';
export { FeedPublisher, type FeedChannel } from './publisher.js';

/**
 * The core's job feed over a family's node-backed coins (run by the accounting leader: one
 * publisher per family, each on its own connection named `connection`).
 */
export async function startFeedPublisher(
  config: Config,
  channels: FeedChannel[],
  logger: Logger,
  connection: string,
): Promise<FeedPublisher> {
  const log = logger.child({ module: 'jobfeed' });
  const nc = await connectShareLog(config.distributed, log, connection);
  const publisher = new FeedPublisher({ nc, config: config.distributed, logger: log, channels });
  try {
    await publisher.start();
  } catch (error) {
    await nc.close();
    throw error;
  }
  log.info({ stream: config.distributed.jobsStream, coins: channels.map((c) => c.coin) }, 'publishing jobs');
  return publisher;
}

/** Reads the last message of a subject from the core's job stream, across the leaf link when there is one. */
export function lastJobReader(
  nc: NatsConnection,
  config: Config['distributed'],
): (subject: string) => Promise<Uint8Array | undefined> {
  return async (subject) => {
    const jsm = await nc.jetstreamManager({
      ...(config.domain === undefined ? {} : { domain: config.coreDomain }),
      checkAPI: false,
      timeout: 2_000,
    });
    try {
      return (await jsm.streams.getMessage(config.jobsStream, { last_by_subj: subject })).data;
    } catch (error) {
      if (error instanceof Error && /no message found/i.test(error.message)) return undefined;
      throw error;
    }
  };
}

/** Hears each message published on a subject (a plain subscription); returns the unsubscribe. */
export function subjectListener(
  nc: NatsConnection,
): (subject: string, onData: (data: Uint8Array) => void) => () => void {
  return (subject, onData) => {
    const sub = nc.subscribe(subject, { callback: (error, msg) => error || onData(msg.data) });
    return () => sub.unsubscribe();
  };
}

/** A region's connection to its NATS server for the core's job feed (a family's own, named `name`). */
export async function connectRegionFeed(
  config: Config,
  logger: Logger,
  name: string,
): Promise<{ nc: NatsConnection; log: Logger }> {
  const { distributed } = config;
  if (!distributed.natsUrl)
    throw new ConfigError('config: distributed.jobsFromCore: needs distributed.natsUrl (MANJAM_NATS_URL)');
  const log = logger.child({ module: 'jobfeed', region: distributed.region });
  return { nc: await connectShareLog(distributed, log, name), log };
}

/** What a region's source of one coin gets from the feed. */
export interface RegionFeedDeps {
  listen: (subject: string, onData: (data: Uint8Array) => void) => () => void;
  readLast: (subject: string) => Promise<Uint8Array | undefined>;
  submitter: CoreSubmitter;
  logger: Logger;
}

/** A region's work of one coin from the core's job feed, and how to stop it. */
export interface RegionFeedWork<S> {
  source: S;
  stop(): Promise<void>;
}

/**
 * A region's source of one coin over the core's job feed, on a connection of its own
 * (`manjam-jobs-<region>-<coin>`) with its submitter for found blocks. Resolves once the source
 * started: the core was heard from, or the source's first-word wait passed (the coin then waits,
 * logged, and starts with the core's first job for it).
 */
export async function startRegionFeedSource<S extends { start(): Promise<unknown>; close(): void }>(
  config: Config,
  logger: Logger,
  coin: CoinId,
  build: (deps: RegionFeedDeps) => S,
): Promise<RegionFeedWork<S>> {
  const { distributed } = config;
  const name = `manjam-jobs-${distributed.region}-${coin.toLowerCase()}`;
  const { nc, log } = await connectRegionFeed(config, logger, name);
  const submitter = new CoreSubmitter({ nc, coin, region: distributed.region, logger: log });
  submitter.start();
  const source = build({
    listen: subjectListener(nc),
    readLast: lastJobReader(nc, distributed),
    submitter,
    logger: log,
  });
  const stop = async (): Promise<void> => {
    source.close();
    await nc.drain().catch(() => undefined);
  };
  try {
    await source.start();
  } catch (error) {
    await stop();
    throw error;
  }
  return { source, stop };
}
