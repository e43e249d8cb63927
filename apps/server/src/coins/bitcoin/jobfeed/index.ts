// The Bitcoin family on the job feed: the core publishes each coin's work on JetStream,
// and a region without coin nodes of its own (`distributed.jobsFromCore`) mines on it. The feed's
// plumbing is shared (../../../jobfeed/); this folder is the family's codec (messages.ts), its
// channel on the core (publisher.ts) and its TemplateSource in a region (core-source.ts).
import type { ChainRuntime } from '../chains.js';
import { ChainNode } from '../node/index.js';
import { BITCOIN_FAMILY_COINS } from '@manjam/protocol';
import type { Config } from '../../../config/index.js';
import type { Logger } from '../../../logger.js';
import {
  connectRegionFeed,
  lastJobReader,
  startFeedPublisher,
  subjectListener,
  type FeedPublisher,
} from '../../../jobfeed/index.js';
import { CoreJobSource } from './core-source.js';
import { CoreSubmitter } from './core-submit.js';
import { bitcoinChannel } from './publisher.js';

export { CoreJobSource } from './core-source.js';
export { CoreSubmitter, BLOCK_RESEND_MS } from './core-submit.js';
export { JobFeedPublisher } from './publisher.js';

/** The core's job feed over its node-backed chains (run by the accounting leader: one publisher). */
export function startJobFeedPublisher(
  config: Config,
  chains: ChainRuntime[],
  logger: Logger,
): Promise<FeedPublisher> {
  const channels = chains.map((c) =>
    bitcoinChannel({ source: c.source, network: config.chains[c.coin].network }),
  );
  return startFeedPublisher(config, channels, logger, 'manjam-core-jobs');
}

export interface CoreJobSources {
  sources: CoreJobSource[];
  stop(): Promise<void>;
}

/**
 * A region's sources for every enabled Bitcoin-family coin, from the core's job feed (every other
 * family has its own, in its folder's jobfeed/).
 * Resolves once the core has been heard from for each coin, or after FIRST_WORD_WAIT_MS: a coin
 * the core does not publish then waits (logged, its port turns miners away) and starts with the
 * core's first job for it, while the other coins work. A coin with nodes configured in the region
 * keeps them as extra targets for found blocks (its templates come from the core all the same).
 */
export async function startCoreJobSources(config: Config, logger: Logger): Promise<CoreJobSources> {
  const { distributed } = config;
  const { nc, log } = await connectRegionFeed(config, logger, `manjam-jobs-${distributed.region}`);
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
      listen: subjectListener(nc),
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
