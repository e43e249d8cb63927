// The accounting leader's background work: accounting (credits, blocks, payouts) with each
// family's wallets, the regional share log's consumer, each family's leader-only work (the job
// feed for regions without nodes) and the alerts beside them. Started by main.ts in the process
// that holds the accounting lock.
import type { Config } from './config/index.js';
import type { Database } from './db/index.js';
import type { PoolEvents } from './events.js';
import type { Logger } from './logger.js';
import type { FamilyChain } from './coins/family.js';
import { startAccounting } from './accounting/index.js';
import { startAlerts } from './services/alerts/index.js';
import { operatorChannel } from './services/alerts/operator.js';
import { startShareLogConsumer, type ShareLogConsumer } from './sharelog/index.js';

/** The background worker: accounting, then alerts beside it. */
export async function startBackground(
  config: Config,
  db: Database,
  logger: Logger,
  events: PoolEvents,
  chains: readonly FamilyChain[],
) {
  const operator = operatorChannel(config);
  const wallets = chains.map((chain) => chain.accounting(logger));
  const creditOnly = wallets.flatMap((w) => w.creditOnly);
  const accounting = await startAccounting({
    config,
    db,
    logger,
    events,
    chains: new Map(wallets.flatMap((w) => w.chains)),
    ...(creditOnly.length > 0 ? { creditOnlyCoins: creditOnly } : {}),
    ...(operator
      ? { notifyOperator: (message: { subject: string; text: string }) => operator.notify(message) }
      : {}),
  });
  let shareLog: ShareLogConsumer | undefined;
  const leaderWork: { stop(): Promise<void> }[] = [];
  const stopLeaderWork = async () => {
    for (const work of leaderWork.splice(0).reverse()) await work.stop();
  };
  try {
    // The regional Stratum nodes' shares, from the JetStream share log into the database.
    if (config.distributed.natsUrl) shareLog = await startShareLogConsumer(config, db, events, logger);
    for (const chain of chains) {
      const work = await chain.leaderWork?.(config, logger);
      if (work) leaderWork.push(work);
    }
    const alerts = await startAlerts({ config, db, logger, events, settings: config.alerts });
    const consumer = shareLog;
    return {
      accounting,
      shareLog: consumer,
      stop: async () => {
        await stopLeaderWork();
        await consumer?.stop();
        await alerts.stop();
        await accounting.stop();
        operator?.close();
      },
    };
  } catch (error) {
    await stopLeaderWork();
    await shareLog?.stop();
    await accounting.stop();
    operator?.close();
    throw error;
  }
}
