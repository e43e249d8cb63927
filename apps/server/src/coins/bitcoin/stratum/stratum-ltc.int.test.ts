import { describe } from 'vitest';
import { startLtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { miningScenarios } from '../../../../test/support/coins/bitcoin/stratum/scenarios.js';
import { testLogger } from '../../../../test/support/coins/bitcoin/stratum/harness.js';

// Litecoin regtest pair with MWEB kept off. At scrypt difficulty 2e-5 (just above the floor
// miners handle) the share target is ~1.5x regtest's network target.
describe('stratum on litecoind regtest before MWEB (Scrypt)', () => {
  miningScenarios({
    coin: 'LTC',
    lowDifficulty: 2e-5,
    start: () => startLtcTestChain({ logger: testLogger, mweb: 'off' }),
  });
});
