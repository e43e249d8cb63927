// The Kaspa family in the whole test pool (e2e/support/pool.ts): KAS on the simnet kaspad dev
// chain built by scripts/kaspad.mjs, started on a copy of the run's funded chain (funded-snapshot.ts)
// when there is one.
import { join } from 'node:path';
import { KASPA_BIN_DIR } from '../../../../../../scripts/kaspad.mjs';
import type { TestPoolFamily } from '../../families.js';
import { fundedKaspaDataDir } from './funded-snapshot.js';
import { SIMNET_SHARE_DIFFICULTY } from './stratum/standalone.js';

export const testPoolCoins: TestPoolFamily['testPoolCoins'] = {
  // kHeavyHash below simnet's network difficulty: shares, non-block shares and blocks within a few hashes.
  KAS: {
    vardiff: { min: 2 ** -40, start: SIMNET_SHARE_DIFFICULTY },
    chain: { binDir: KASPA_BIN_DIR },
    prepare(dataDir) {
      fundedKaspaDataDir(join(dataDir, 'devchain', 'kas'));
    },
  },
};
