// The Monero family (XMR, RandomX) behind the coin-family seam: monerod and its wallet (or the
// regtest dev chain), the XMRig dialect's ports, the wallet for accounting, the job feed the
// accounting leader publishes for regions; on a regional node without monerod, XMR's work from
// the core's job feed (jobfeed/).
import type { Config } from '../../config/index.js';
import type { Logger } from '../../logger.js';
import type { AccountingChain } from '../../accounting/chain.js';
import type { CoinFamily, FamilyChain } from '../family.js';
import type { MoneroChainRuntime } from './chain.js';
import type { CoreMoneroWork } from './jobfeed/index.js';
import { MoneroAccountingChain } from './wallet.js';

/** The family's chain as main.ts holds it, with its runtime for tests and tools that need monerod. */
export interface MoneroFamilyChain extends FamilyChain {
  readonly family: 'monero';
  readonly runtime: MoneroChainRuntime;
}

export const moneroFamily: CoinFamily = {
  id: 'monero',
  // monerod's client, the job feed, the XMRig dialect and RandomX are loaded only where XMR runs.
  async startChain(config, logger, mode) {
    if (!config.chains.XMR.enabled) return undefined;
    if (mode === 'core-jobs') {
      const { startCoreMoneroWork } = await import('./jobfeed/index.js');
      return coreJobsChain(config, await startCoreMoneroWork(config, logger));
    }
    const runtime = await (await import('./chain.js')).startMoneroChain(config, logger);
    return runtime ? moneroChain(runtime) : undefined;
  },
};

function moneroChain(runtime: MoneroChainRuntime): MoneroFamilyChain {
  return {
    family: 'monero',
    runtime,
    coins: [runtime.coin],
    health: async () => [await runtime.health()],
    // XMR has work while its template source holds a template.
    up: () => [{ coin: runtime.coin, up: runtime.source.current !== undefined }],
    accounting: (logger) => {
      const wallet = accountingChain(runtime, logger);
      return wallet
        ? { chains: [[runtime.coin, wallet]], creditOnly: [] }
        : { chains: [], creditOnly: [runtime.coin] };
    },
    leaderWork: (config: Config, logger: Logger) =>
      // XMR's work for regions without monerod: published by the leader alone (one writer per subject).
      config.distributed.natsUrl
        ? import('./jobfeed/index.js').then((feed) => feed.startMoneroFeedPublisher(config, runtime, logger))
        : Promise.resolve(undefined),
    openPorts: async (kit) => (await import('./stratum/ports.js')).openMoneroPorts(kit, runtime),
    stop: () => runtime.stop(),
  };
}

/** XMR on a regional node, with its work from the core's feed (tests follow it). */
export interface MoneroRegionChain extends FamilyChain {
  readonly family: 'monero';
  readonly feed: CoreMoneroWork['source'];
}

/** Whether a family chain is XMR's on the core's job feed. */
export function isMoneroRegionChain(chain: FamilyChain): chain is MoneroRegionChain {
  return chain.family === 'monero' && 'feed' in chain;
}

/** XMR on a regional node: work from the core's feed, no monerod, no wallet, no health entry. */
function coreJobsChain(config: Config, work: CoreMoneroWork): MoneroRegionChain {
  const coin = 'XMR';
  return {
    family: 'monero',
    feed: work.source,
    coins: [coin],
    health: () => Promise.resolve([]),
    up: () => [],
    accounting: () => ({ chains: [], creditOnly: [] }),
    openPorts: async (kit) =>
      (await import('./stratum/ports.js')).openMoneroPorts(kit, {
        coin,
        network: config.chains.XMR.network,
        source: work.source,
      }),
    stop: () => work.stop(),
  };
}

/** Whether a family chain is Monero's (tests reach monerod through it). */
export function isMoneroChain(chain: FamilyChain): chain is MoneroFamilyChain {
  return chain.family === 'monero';
}

/** How long XMR's accounting waits for monero-wallet-rpc (a transfer can take a while). */
const XMR_WALLET_TIMEOUT_MS = 120_000;

/**
 * XMR's accounting chain: block ids from monerod, payouts from the pool wallet's
 * monero-wallet-rpc (wallet.ts). Its own clients, with a timeout long enough for a `transfer` on a
 * large wallet (an answer lost to a timeout is reconciled, but needlessly). With no wallet RPC
 * configured, XMR shares are credited and settled while blocks and payouts wait.
 */
function accountingChain(runtime: MoneroChainRuntime, logger: Logger): AccountingChain | undefined {
  if (!runtime.wallet) {
    logger.warn(
      { coin: runtime.coin },
      'XMR payouts are not run: no chains.XMR.walletRpcUrl; shares are credited, found blocks wait for a wallet',
    );
    return undefined;
  }
  return MoneroAccountingChain.fromUrls(runtime.daemon.url, runtime.wallet.url, XMR_WALLET_TIMEOUT_MS);
}
