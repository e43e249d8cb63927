import { hashesPerDifficulty, hashrateUnitOf } from '@manjam/contract';
import type { WebFamily } from '../family';

/** Monero: standard, subaddress and integrated addresses; its difficulty counts hashes. */
export const monero: WebFamily = {
  addressKindsKey: 'validation.xmrKinds',
  calculator: [
    {
      coin: 'XMR',
      // Monero's tail emission: 0.6 XMR a block for good; a CPU mines at a few kH/s.
      reward: '0.6',
      unit: hashrateUnitOf('XMR'),
      nodeDifficultyHashes: hashesPerDifficulty('XMR'),
      formulaKey: 'calculator.formulaMonero',
    },
  ],
};
