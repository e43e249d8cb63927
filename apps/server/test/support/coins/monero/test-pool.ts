// The Monero family in the whole test pool (e2e/support/pool.ts): XMR on a regtest monerod +
// monero-wallet-rpc pair.
import type { TestPoolFamily } from '../../families.js';

export const testPoolCoins: TestPoolFamily['testPoolCoins'] = {
  // Difficulty 1: monerod's dev chain runs at fixed difficulty 1.
  XMR: { vardiff: { min: 1, start: 1 } },
};
