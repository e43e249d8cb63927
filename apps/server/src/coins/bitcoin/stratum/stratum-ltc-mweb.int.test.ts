import { describe } from 'vitest';
import { LTC_MWEB_ACTIVATION_HEIGHT } from '../devchain/index.js';
import { startLtcTestChain } from '../../../../test/support/devchain/snapshot.js';
import { miningScenarios } from '../../../../test/support/coins/bitcoin/stratum/scenarios.js';
import { testLogger } from '../../../../test/support/coins/bitcoin/stratum/harness.js';

// Litecoin regtest past MWEB activation (height >= 432): every template carries a HogEx
// transaction and `mweb` data, and blocks are serialized with 0x01 + the MWEB block.
describe(`stratum on litecoind regtest after MWEB activation (height ${LTC_MWEB_ACTIVATION_HEIGHT}+)`, () => {
  miningScenarios({
    coin: 'LTC',
    lowDifficulty: 2e-5,
    mweb: true,
    start: () => startLtcTestChain({ logger: testLogger, mweb: 'activate' }),
  });
});
