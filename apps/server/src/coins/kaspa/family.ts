// The Kaspa family (KAS, kHeavyHash) behind the coin-family seam: kaspad (or the simnet dev
// chain), the Kaspa Stratum dialects' ports, and accounting over kaspad and the pool wallet's
// kaspawallet daemon (wallet.ts: found blocks held once merged blue, payouts one payee per Send).
// Without a wallet daemon KAS shares are credited while found blocks and payouts wait, as XMR's
// do without a wallet. The accounting leader publishes KAS's templates on the job feed; a regional
// node without kaspad mines KAS on them (jobfeed/).
import { kaspaNetworkOf } from '@manjam/protocol/kaspa';
import type { Config } from '../../config/index.js';
import type { Logger } from '../../logger.js';
import type { CoinFamily, FamilyChain } from '../family.js';
import type { KaspaChainRuntime } from './chain.js';
import type { CoreKaspaWork } from './jobfeed/index.js';

/** The family's chain as main.ts holds it, with its runtime for tests and tools that need kaspad. */
export interface KaspaFamilyChain extends FamilyChain {
  readonly family: 'kaspa';
  readonly runtime: KaspaChainRuntime;
}

export const kaspaFamily: CoinFamily = {
  id: 'kaspa',
  // kaspad's gRPC client, the job feed and the Kaspa dialects are loaded only where KAS runs.
  async startChain(config, logger, mode) {
    if (!config.chains.KAS.enabled) return undefined;
    if (mode === 'core-jobs') {
      const { startCoreKaspaWork } = await import('./jobfeed/index.js');
      return coreJobsChain(config, await startCoreKaspaWork(config, logger));
    }
    const runtime = await (await import('./chain.js')).startKaspaChain(config, logger);
    return runtime ? kaspaChain(runtime) : undefined;
  },
};

function kaspaChain(runtime: KaspaChainRuntime): KaspaFamilyChain {
  return {
    family: 'kaspa',
    runtime,
    coins: [runtime.coin],
    health: async () => [await runtime.health()],
    up: () => [{ coin: runtime.coin, up: runtime.up() }],
    accounting: (logger) => {
      const wallet = runtime.accounting();
      if (wallet) return { chains: [[runtime.coin, wallet]], creditOnly: [] };
      logger.warn(
        { coin: runtime.coin },
        'KAS payouts are not run: no chains.KAS.walletDaemonAddress; shares are credited, found blocks wait for a wallet',
      );
      return { chains: [], creditOnly: [runtime.coin] };
    },
    leaderWork: (config: Config, logger: Logger) =>
      // KAS's work for regions without kaspad: published by the leader alone (one writer per subject).
      config.distributed.natsUrl
        ? import('./jobfeed/index.js').then((feed) => feed.startKaspaFeedPublisher(config, runtime, logger))
        : Promise.resolve(undefined),
    openPorts: (kit) => runtime.openPorts(kit),
    stop: () => runtime.stop(),
  };
}

/** KAS on a regional node, with its work from the core's feed (tests follow it). */
export interface KaspaRegionChain extends FamilyChain {
  readonly family: 'kaspa';
  readonly feed: CoreKaspaWork['source'];
}

/** Whether a family chain is KAS's on the core's job feed. */
export function isKaspaRegionChain(chain: FamilyChain): chain is KaspaRegionChain {
  return chain.family === 'kaspa' && 'feed' in chain;
}

/** KAS on a regional node: work from the core's feed, no kaspad, no wallet, no health entry. */
function coreJobsChain(config: Config, work: CoreKaspaWork): KaspaRegionChain {
  const configNetwork = config.chains.KAS.network;
  const chain = { source: work.source, network: kaspaNetworkOf(configNetwork), configNetwork };
  return {
    family: 'kaspa',
    feed: work.source,
    coins: ['KAS'],
    health: () => Promise.resolve([]),
    up: () => [],
    accounting: () => ({ chains: [], creditOnly: [] }),
    openPorts: async (kit) => (await import('./stratum/ports.js')).openKaspaPorts(kit, chain),
    stop: () => work.stop(),
  };
}

/** Whether a family chain is Kaspa's (tests reach kaspad through it). */
export function isKaspaChain(chain: FamilyChain): chain is KaspaFamilyChain {
  return chain.family === 'kaspa';
}
