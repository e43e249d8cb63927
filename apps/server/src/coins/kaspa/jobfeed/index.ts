// The Kaspa family on the job feed (issue 28): the accounting leader publishes kaspad's KAS block
// templates, and a region without kaspad mines KAS on them (its found blocks go to the core,
// which submits them to kaspad). The plumbing is the feed's (../../../jobfeed/).
import type { Config } from '../../../config/index.js';
import {
  connectRegionFeed,
  CoreSubmitter,
  lastJobReader,
  startFeedPublisher,
  subjectListener,
  type FeedPublisher,
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

export interface CoreKaspaWork {
  source: CoreKaspaSource;
  stop(): Promise<void>;
}

/**
 * A region's KAS work from the core's job feed. Resolves once the core has been heard from, or
 * after FIRST_WORD_WAIT_MS: KAS then waits (logged; its port takes no connection) and starts with
 * the core's first KAS job.
 */
export async function startCoreKaspaWork(config: Config, logger: Logger): Promise<CoreKaspaWork> {
  const { distributed } = config;
  const chain = config.chains.KAS;
  const { nc, log } = await connectRegionFeed(config, logger, `manjam-jobs-${distributed.region}-kas`);
  const submitter = new CoreSubmitter({ nc, coin: 'KAS', region: distributed.region, logger: log });
  submitter.start();
  const source = new CoreKaspaSource({
    listen: subjectListener(nc),
    network: chain.network,
    readLast: lastJobReader(nc, distributed),
    submitter,
    silenceMs: chain.nodeSilenceSeconds * 1000,
    jobValidMs: chain.jobValidSeconds * 1000,
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
