// The Bitcoin family in the whole test pool (e2e/support/pool.ts): LTC on a regtest litecoind
// pair (BTC, on bcoin, is the pool's own port, always started).
import type { TestPoolFamily } from '../../families.js';

export const testPoolCoins: TestPoolFamily['testPoolCoins'] = {
  // Scrypt difficulty 0.01: a share every ~655 hashes (Node hashes ~4,300 Scrypt H/s).
  LTC: { vardiff: { min: 1e-4, start: 0.01 } },
};
