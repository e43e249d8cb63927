// The Bitcoin family (BTC SHA-256d, LTC Scrypt) behind the coin-family seam: its nodes or dev
// chains (chains.ts), or, on a regional Stratum node, jobs from the core's feed; its V1 ports; its
// wallets for accounting; the job feed the accounting leader publishes for regions.
import type { Config } from '../../config/index.js';
import type { Logger } from '../../logger.js';
import { RpcAccountingChain } from './wallet.js';
import type { CoinFamily, FamilyChain } from '../family.js';
import { startChains, type ChainRuntime } from './chains.js';
import type { TemplateSource } from './source.js';
import { openBitcoinPorts } from './stratum/ports.js';

export const bitcoinFamily: CoinFamily = {
  id: 'bitcoin',
  async startChain(config, logger, mode) {
    // The job feed (NATS) is loaded only by a regional node on it and a leader publishing it.
    if (mode === 'core-jobs') {
      const core = await (await import('./jobfeed/index.js')).startCoreJobSources(config, logger);
      return { ...chainOfSources(core.sources), stop: () => core.stop() };
    }
    const chains = await startChains(config, logger);
    return chains.length > 0 ? chainOfNodes(chains) : undefined;
  },
  // Its Stratum V2 ports' authority (its code loaded only where a V2 port is configured).
  authorityKey: async (config) =>
    config.stratum.ports.some((p) => p.protocol === 'v2')
      ? (await import('./stratum-v2/authority.js')).readAuthorityPublicKey(config)
      : undefined,
};

/** The family's chain side on its own nodes. */
function chainOfNodes(chains: readonly ChainRuntime[]): FamilyChain {
  return {
    family: 'bitcoin',
    coins: chains.map((c) => c.coin),
    health: () => Promise.all(chains.map((c) => c.health())),
    up: () => chains.map((c) => ({ coin: c.coin, up: c.watcher.status().up })),
    accounting: () => ({
      chains: chains.map((c) => [c.coin, RpcAccountingChain.fromNode(c.node)]),
      creditOnly: [],
    }),
    leaderWork: (config: Config, logger: Logger) =>
      // The core's work for regions without nodes: published by the leader alone (one writer per subject).
      config.distributed.natsUrl
        ? import('./jobfeed/index.js').then((feed) => feed.startJobFeedPublisher(config, [...chains], logger))
        : Promise.resolve(undefined),
    openPorts: (kit) =>
      openBitcoinPorts(
        kit,
        chains.map((c) => c.source),
      ),
    stop: () => Promise.all(chains.map((c) => c.stop())).then(() => undefined),
  };
}

/**
 * The family's chain side as template sources alone: a regional node's jobs from the core, or a
 * test's own sources. No node here, so no health entry, no wallet and nothing to stop.
 */
export function chainOfSources(sources: readonly TemplateSource[]): FamilyChain {
  return {
    family: 'bitcoin',
    coins: sources.map((s) => s.coin),
    health: () => Promise.resolve([]),
    up: () => [],
    accounting: () => ({ chains: [], creditOnly: [] }),
    openPorts: (kit) => openBitcoinPorts(kit, sources),
    stop: () => Promise.resolve(),
  };
}
