// The Kaspa family (KAS, kHeavyHash) behind the coin-family seam: kaspad (or the simnet dev
// chain), the Kaspa Stratum dialects' ports, and accounting over kaspad and the pool wallet's
// kaspawallet daemon (wallet.ts: found blocks held once merged blue, payouts one payee per Send).
// Without a wallet daemon KAS shares are credited while found blocks and payouts wait, as XMR's
// do without a wallet. A regional node taking jobs from the core does not serve KAS yet (the job
// feed carries Bitcoin-family templates only).
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
      const wallet = runtime.accounting();
      if (wallet) return { chains: [[runtime.coin, wallet]], creditOnly: [] };
      logger.warn(
        { coin: runtime.coin },
        'KAS payouts are not run: no chains.KAS.walletDaemonAddress; shares are credited, found blocks wait for a wallet',
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
