// The Kaspa family on the job feed: the accounting leader publishes kaspad's KAS block
// templates, and a region without kaspad mines KAS on them (its found blocks go to the core,
// which submits them to kaspad). The plumbing is the feed's (../../../jobfeed/).
import type { Config } from '../../../config/index.js';
import {
  startFeedPublisher,
  startRegionFeedSource,
  type FeedPublisher,
  type RegionFeedWork,
} from '../../../jobfeed/index.js';
import type { Logger } from '../../../logger.js';
import type { KaspaChainRuntime } from '../chain.js';
import { kaspaChannel } from './channel.js';
import { CoreKaspaSource } from './core-source.js';

export { CoreKaspaSource } from './core-source.js';

/** KAS's job feed on the core (run by the accounting leader). */
export function startKaspaFeedPublisher(
  config: Config,
  runtime: KaspaChainRuntime,
  logger: Logger,
): Promise<FeedPublisher> {
  return startFeedPublisher(config, [kaspaChannel(runtime)], logger, 'manjam-core-jobs-kas');
}

export type CoreKaspaWork = RegionFeedWork<CoreKaspaSource>;

/**
 * A region's KAS work from the core's job feed. Resolves once the core has been heard from, or
 * after FIRST_WORD_WAIT_MS: KAS then waits (logged; its port takes no connection) and starts with
 * the core's first KAS job.
 */
export function startCoreKaspaWork(config: Config, logger: Logger): Promise<CoreKaspaWork> {
  const chain = config.chains.KAS;
  return startRegionFeedSource(
    config,
    logger,
    'KAS',
    (feed) =>
      new CoreKaspaSource({
        ...feed,
        network: chain.network,
        silenceMs: chain.nodeSilenceSeconds * 1000,
        jobValidMs: chain.jobValidSeconds * 1000,
      }),
  );
}
