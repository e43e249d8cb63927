// The Kaspa family (KAS, kHeavyHash) behind the coin-family seam: kaspad (or the simnet dev
// chain), the Kaspa Stratum dialects' ports. Money: KAS shares are credited (PPS+ from each
// template's reward, PPLNS, SOLO); found blocks and payouts wait for the family's accounting
// chain (the kaspawallet daemon), as XMR's do without a wallet. A regional node taking jobs from
// the core does not serve KAS yet (the job feed carries Bitcoin-family templates only).
import type { CoinFamily, FamilyChain } from '../family.js';
import { startKaspaChain, type KaspaChainRuntime } from './chain.js';

/** The family's chain as main.ts holds it, with its runtime for tests and tools that need kaspad. */
export interface KaspaFamilyChain extends FamilyChain {
  readonly family: 'kaspa';
  readonly runtime: KaspaChainRuntime;
}

export const kaspaFamily: CoinFamily = {
  id: 'kaspa',
  async startChain(config, logger, mode) {
    if (mode === 'core-jobs') return undefined;
    const runtime = await startKaspaChain(config, logger);
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
      logger.warn(
        { coin: runtime.coin },
        'KAS payouts are not run yet: shares are credited, found blocks wait for the kaspawallet accounting chain',
      );
      return { chains: [], creditOnly: [runtime.coin] };
    },
    openPorts: (kit) => runtime.openPorts(kit),
    stop: () => runtime.stop(),
  };
}

/** Whether a family chain is Kaspa's (tests reach kaspad through it). */
export function isKaspaChain(chain: FamilyChain): chain is KaspaFamilyChain {
  return chain.family === 'kaspa';
}
