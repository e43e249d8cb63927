// The Monero family on the job feed: the accounting leader publishes monerod's XMR
// templates, and a region without a node mines XMR on them (its found blocks go to the core,
// which submits them to monerod). The plumbing is the feed's (../../../jobfeed/).
import type { Config } from '../../../config/index.js';
import {
  startFeedPublisher,
  startRegionFeedSource,
  type FeedPublisher,
  type RegionFeedWork,
} from '../../../jobfeed/index.js';
import type { Logger } from '../../../logger.js';
import type { MoneroChainRuntime } from '../chain.js';
import { moneroChannel } from './channel.js';
import { CoreMoneroSource } from './core-source.js';

export { CoreMoneroSource } from './core-source.js';

/** XMR's job feed on the core (run by the accounting leader). */
export function startMoneroFeedPublisher(
  config: Config,
  runtime: MoneroChainRuntime,
  logger: Logger,
): Promise<FeedPublisher> {
  return startFeedPublisher(config, [moneroChannel(runtime)], logger, 'manjam-core-jobs-xmr');
}

export type CoreMoneroWork = RegionFeedWork<CoreMoneroSource>;

/**
 * A region's XMR work from the core's job feed. Resolves once the core has been heard from, or
 * after FIRST_WORD_WAIT_MS: XMR then waits (logged; its port takes no connection) and starts with
 * the core's first XMR job.
 */
export function startCoreMoneroWork(config: Config, logger: Logger): Promise<CoreMoneroWork> {
  const chain = config.chains.XMR;
  return startRegionFeedSource(
    config,
    logger,
    'XMR',
    (feed) =>
      new CoreMoneroSource({
        ...feed,
        network: chain.network,
        silenceMs: chain.nodeSilenceSeconds * 1000,
      }),
  );
}
