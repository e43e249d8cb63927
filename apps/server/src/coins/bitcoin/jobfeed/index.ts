// The job feed (issue 17): the core publishes each coin's work on JetStream, and a region without
// coin nodes of its own (`distributed.jobsFromCore`) mines on it. See publisher.ts and core-source.ts.
import type { NatsConnection } from 'nats';
import type { ChainRuntime } from '../chains.js';
import { ChainNode } from '../node/index.js';
import { BITCOIN_FAMILY_COINS } from '@manjam/protocol';
import { ConfigError, type Config } from '../../../config/index.js';
import type { Logger } from '../../../logger.js';
import { connectShareLog } from '../../../sharelog/stream.js';
import { CoreJobSource } from './core-source.js';
import { CoreSubmitter } from './core-submit.js';
import { JobFeedPublisher } from './publisher.js';

export { CoreJobSource } from './core-source.js';
export { CoreSubmitter, BLOCK_RESEND_MS } from './core-submit.js';
export { JobFeedPublisher } from './publisher.js';

/** The core's job feed over its node-backed chains (run by the accounting leader: one publisher). */
export async function startJobFeedPublisher(
  config: Config,
  chains: ChainRuntime[],
  logger: Logger,
): Promise<JobFeedPublisher> {
  const log = logger.child({ module: 'jobfeed' });
  const nc = await connectShareLog(config.distributed, log, 'manjam-core-jobs');
  const publisher = new JobFeedPublisher({
    nc,
    config: config.distributed,
    logger: log,
    coins: chains.map((c) => ({ source: c.source, network: config.chains[c.coin].network })),
  });
  try {
    await publisher.start();
  } catch (error) {
    await nc.close();
    throw error;
  }
  log.info({ stream: config.distributed.jobsStream, coins: chains.map((c) => c.coin) }, 'publishing jobs');
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

export interface CoreJobSources {
  sources: CoreJobSource[];
  stop(): Promise<void>;
}

/**
 * A region's sources for every enabled Bitcoin-family coin, from the core's job feed (XMR's
 * templates are not carried by the feed yet: a region taking jobs from the core serves BTC and LTC).
 * Resolves once the core has been heard from for each coin, or after FIRST_WORD_WAIT_MS: a coin
 * the core does not publish then waits (logged, its port turns miners away) and starts with the
 * core's first job for it, while the other coins work. A coin with nodes configured in the region
 * keeps them as extra targets for found blocks (its templates come from the core all the same).
 */
export async function startCoreJobSources(config: Config, logger: Logger): Promise<CoreJobSources> {
  const { distributed } = config;
  if (!distributed.natsUrl)
    throw new ConfigError('config: distributed.jobsFromCore: needs distributed.natsUrl (MANJAM_NATS_URL)');
  const log = logger.child({ module: 'jobfeed', region: distributed.region });
  const nc = await connectShareLog(distributed, log, `manjam-jobs-${distributed.region}`);
  const nodes: ChainNode[] = [];
  const sources = BITCOIN_FAMILY_COINS.filter((coin) => config.chains[coin].enabled).map((coin) => {
    const chain = config.chains[coin];
    const own = [...(chain.rpc ? [chain.rpc] : []), ...(chain.rpc ? chain.rpcBackups : [])].map(
      (rpc) => new ChainNode({ coin, rpc, timeoutMs: chain.rpcTimeoutMs }),
    );
    nodes.push(...own);
    const submitter = new CoreSubmitter({ nc, coin, region: distributed.region, logger: log, nodes: own });
    submitter.start();
    return new CoreJobSource({
      listen: (subject, onData) => {
        const sub = nc.subscribe(subject, { callback: (error, msg) => error || onData(msg.data) });
        return () => sub.unsubscribe();
      },
      coin,
      network: chain.network,
      readLast: lastJobReader(nc, distributed),
      submitter,
      silenceMs: chain.nodeSilenceSeconds * 1000,
      logger: log,
    });
  });
  const stop = async (): Promise<void> => {
    for (const source of sources) source.close();
    for (const node of nodes) node.close();
    await nc.drain().catch(() => undefined);
  };
  try {
    await Promise.all(sources.map((s) => s.start()));
  } catch (error) {
    await stop();
    throw error;
  }
  return { sources, stop };
}
