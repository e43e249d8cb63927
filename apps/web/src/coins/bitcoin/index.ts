import { hashrateUnitOf, NODE_DIFFICULTY_HASHES } from '@manjam/contract';
import type { WebFamily } from '../family';

/** Bitcoin-family coins (BTC, LTC): base58check and bech32 addresses, Bitcoin Core's difficulty. */
export const bitcoin: WebFamily = {
  calculator: [
    {
      coin: 'BTC',
      reward: '3.125',
      unit: hashrateUnitOf('BTC'),
      nodeDifficultyHashes: NODE_DIFFICULTY_HASHES,
    },
    {
      coin: 'LTC',
      reward: '6.25',
      unit: hashrateUnitOf('LTC'),
      nodeDifficultyHashes: NODE_DIFFICULTY_HASHES,
    },
    // Scrypt hardware, LTC's unit (the pool does not mine Dogecoin: its shares are not accepted).
    {
      coin: 'DOGE',
      reward: '10000',
      unit: hashrateUnitOf('LTC'),
      nodeDifficultyHashes: NODE_DIFFICULTY_HASHES,
    },
  ],
};
