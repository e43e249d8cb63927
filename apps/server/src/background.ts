// The accounting leader's background work: accounting (credits, blocks, payouts) with each
// coin's chain, the regional share log's consumer, the job feed for regions without nodes, and
// the alerts beside them. Started by main.ts in the process that holds the accounting lock.
import type { Config, CoinId } from './config/index.js';
import type { Database } from './db/index.js';
import type { PoolEvents } from './events.js';
import type { Logger } from './logger.js';
import type { ChainRuntime } from './coins/bitcoin/chains.js';
import type { MoneroChainRuntime } from './coins/monero/chain.js';
import { MoneroAccountingChain, startAccounting } from './accounting/index.js';
import type { AccountingChain } from './accounting/chain.js';
import type { ChainNode } from './coins/bitcoin/node/index.js';
import { startAlerts } from './services/alerts/index.js';
import { operatorChannel } from './services/alerts/operator.js';
import { startShareLogConsumer, type ShareLogConsumer } from './sharelog/index.js';
import { startJobFeedPublisher, type JobFeedPublisher } from './jobfeed/index.js';

/** The background worker: accounting, then alerts beside it. */
export async function startBackground(
  config: Config,
  db: Database,
  logger: Logger,
  events: PoolEvents,
  chains: ChainRuntime[],
  monero: MoneroChainRuntime | undefined,
) {
  const operator = operatorChannel(config);
  const xmrChain = monero ? moneroAccountingChain(monero, logger) : undefined;
  const accounting = await startAccounting({
    config,
    db,
    logger,
    events,
    chains: new Map<CoinId, AccountingChain | ChainNode>([
      ...chains.map((c) => [c.coin, c.node] as const),
      ...(xmrChain ? [['XMR', xmrChain] as const] : []),
    ]),
    ...(monero && !xmrChain ? { creditOnlyCoins: ['XMR'] as const } : {}),
    ...(operator
      ? { notifyOperator: (message: { subject: string; text: string }) => operator.notify(message) }
      : {}),
  });
  let shareLog: ShareLogConsumer | undefined;
  let jobFeed: JobFeedPublisher | undefined;
  try {
    // The regional Stratum nodes' shares, from the JetStream share log into the database.
    if (config.distributed.natsUrl) shareLog = await startShareLogConsumer(config, db, events, logger);
    // The core's work for regions without nodes: published by the leader alone (one writer per subject).
    if (config.distributed.natsUrl && chains.length > 0)
      jobFeed = await startJobFeedPublisher(config, chains, logger);
    const alerts = await startAlerts({ config, db, logger, events, settings: config.alerts });
    const consumer = shareLog;
    const feed = jobFeed;
    return {
      accounting,
      shareLog: consumer,
      stop: async () => {
        await feed?.stop();
        await consumer?.stop();
        await alerts.stop();
        await accounting.stop();
        operator?.close();
      },
    };
  } catch (error) {
    await jobFeed?.stop();
    await shareLog?.stop();
    await accounting.stop();
    operator?.close();
    throw error;
  }
}

/** How long XMR's accounting waits for monero-wallet-rpc (a transfer can take a while). */
const XMR_WALLET_TIMEOUT_MS = 120_000;

/**
 * XMR's accounting chain: block ids from monerod, payouts from the pool wallet's
 * monero-wallet-rpc (accounting/monero-chain.ts). Its own clients, with a timeout long enough for
 * a `transfer` on a large wallet (an answer lost to a timeout is reconciled, but needlessly). With
 * no wallet RPC configured, XMR shares are credited and settled while blocks and payouts wait.
 */
function moneroAccountingChain(monero: MoneroChainRuntime, logger: Logger): AccountingChain | undefined {
  if (!monero.wallet) {
    logger.warn(
      { coin: monero.coin },
      'XMR payouts are not run: no chains.XMR.walletRpcUrl; shares are credited, found blocks wait for a wallet',
    );
    return undefined;
  }
  return MoneroAccountingChain.fromUrls(monero.daemon.url, monero.wallet.url, XMR_WALLET_TIMEOUT_MS);
}
