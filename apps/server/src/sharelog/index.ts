// The distributed mode's share log: regional Stratum nodes publish to JetStream, the
// accounting leader stores into PostgreSQL. See publisher.ts and consumer.ts.
import { hostname } from 'node:os';
import type { Config } from '../config/index.js';
import type { Database } from '../db/index.js';
import type { PoolEvents } from '../events.js';
import type { Logger } from '../logger.js';
import { ShareLogConsumer } from './consumer.js';
import { ShareLogPublisher } from './publisher.js';
import { connectShareLog, regionalStreamName } from './stream.js';

export { ShareLogConsumer } from './consumer.js';
export { ShareLogPublisher } from './publisher.js';

/** The Stratum node's share sink on the configured JetStream (stream created when missing). */
export async function startShareLogPublisher(config: Config, logger: Logger): Promise<ShareLogPublisher> {
  const log = logger.child({ module: 'sharelog', region: config.distributed.region });
  const nodeId = config.stratum.instanceId === undefined ? hostname() : `i${config.stratum.instanceId}`;
  const nc = await connectShareLog(
    config.distributed,
    log,
    `manjam-stratum-${config.distributed.region}-${nodeId}`,
  );
  const publisher = new ShareLogPublisher({ nc, config: config.distributed, logger: log, nodeId });
  try {
    await publisher.start();
  } catch (error) {
    await nc.close();
    throw error;
  }
  const { domain, stream } = config.distributed;
  if (domain === undefined) log.info({ stream }, 'shares go to the JetStream share log');
  else
    log.info(
      { stream: regionalStreamName(config.distributed, domain), domain },
      "shares go to the region's own JetStream share log (sourced by the core)",
    );
  return publisher;
}

/** The core's durable consumer writing the share log into the database. */
export async function startShareLogConsumer(
  config: Config,
  db: Database,
  events: PoolEvents,
  logger: Logger,
): Promise<ShareLogConsumer> {
  const log = logger.child({ module: 'sharelog' });
  const nc = await connectShareLog(config.distributed, log, 'manjam-core-consumer');
  const consumer = new ShareLogConsumer({
    nc,
    db,
    events,
    config: config.distributed,
    logger: log,
    gatherMs: config.distributed.consumerGatherMs,
    pullSize: config.distributed.consumerPullMessages,
    slotMs: config.distributed.shareSlotSeconds * 1_000,
  });
  try {
    await consumer.start();
  } catch (error) {
    await nc.close();
    throw error;
  }
  log.info(
    { stream: config.distributed.stream, consumer: config.distributed.consumer },
    'storing the JetStream share log',
  );
  return consumer;
}
