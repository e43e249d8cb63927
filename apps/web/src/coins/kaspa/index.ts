import { hashrateUnitOf } from '@manjam/contract';
import type { WebFamily } from '../family';

/** kaspad reports difficulty as (2^255 - 1) over the target: two hashes per unit. */
const KASPA_NODE_DIFFICULTY_HASHES = 2;

/** Kaspa: `kaspa:` addresses (`kaspasim:` on the dev chain). */
export const kaspa: WebFamily = {
  calculator: [
    {
      coin: 'KAS',
      // Kaspa's emission: 440 KAS a second from May 2022, halving yearly in monthly steps, 10 blocks
      // a second since Crescendo (May 2025): about 1.94 KAS a block in late 2026. Editable.
      reward: '1.94',
      unit: hashrateUnitOf('KAS'),
      nodeDifficultyHashes: KASPA_NODE_DIFFICULTY_HASHES,
      formulaKey: 'calculator.formulaKaspa',
    },
  ],
  // A CPU is told how little it hashes on kHeavyHash.
  cpuNoteKey: 'setupGuide.kaspa.cpu',
};
