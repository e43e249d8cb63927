// The Monero family in the whole test pool (e2e/support/pool.ts): XMR on a regtest monerod +
// monero-wallet-rpc pair, started on a copy of the run's prepared chain (chain-snapshot.ts) when
// there is one.
import { join } from 'node:path';
import type { TestPoolFamily } from '../../families.js';
import { moneroChainDataDir } from './chain-snapshot.js';

export const testPoolCoins: TestPoolFamily['testPoolCoins'] = {
  // Difficulty 1: monerod's dev chain runs at fixed difficulty 1.
  XMR: {
    vardiff: { min: 1, start: 1 },
    prepare(dataDir) {
      moneroChainDataDir(join(dataDir, 'devchain', 'xmr'));
    },
  },
};
