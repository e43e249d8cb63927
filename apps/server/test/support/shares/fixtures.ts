// One wallet miner and its accepted shares, for the share writer and journal tests.
import { BTC_REGTEST_ADDRESS } from '../coins/bitcoin/stratum/fake-source.js';
import { minerRef, type AcceptedShare } from '../../../src/shares/types.js';

export const testMiner = minerRef('BTC', { kind: 'wallet', address: BTC_REGTEST_ADDRESS }, 'rig');

export const testShare = (atMs: number): AcceptedShare => ({
  miner: testMiner,
  difficulty: 2,
  actualDifficulty: 3,
  networkDifficulty: 1000,
  height: 200,
  scheme: 'pps-plus',
  atMs,
});
