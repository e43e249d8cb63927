import { describe } from 'vitest';
import { startBtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { miningScenarios } from '../../../../test/support/coins/bitcoin/stratum/scenarios.js';
import { testLogger } from '../../../../test/support/coins/bitcoin/stratum/harness.js';

// Regtest's target (0x7fffff << 232) accepts about every other hash; at this share difficulty
// (just above the floor miners can handle) a share target is ~1.5x the network target.
describe('stratum on bcoin regtest (SHA-256d)', () => {
  miningScenarios({
    coin: 'BTC',
    lowDifficulty: 3e-10,
    start: () => startBtcTestChain({ logger: testLogger }),
  });
});
