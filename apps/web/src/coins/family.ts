// What the web app knows of a coin family beyond the coin table (which the contract carries):
// one module per family under coins/<family>/, gathered in coins/registry.ts.
import type { AccountCoin, HashrateUnit } from '@manjam/contract';

/** A coin the calculator estimates, with what its node and miners count in. */
export interface CalculatorCoin {
  coin: AccountCoin;
  /** A mainnet block subsidy to pre-fill (editable), until the pool has found a block of the coin. */
  reward: string;
  /** The unit its miners count their hashrate in. */
  unit: HashrateUnit;
  /**
   * Expected hashes per unit of the difficulty its node and explorers report: Bitcoin Core's unit
   * (2^32), Monero's own (1: its difficulty counts hashes), Kaspa's (2).
   */
  nodeDifficultyHashes: number;
  /** The formula line under the estimate, when the node counts difficulty otherwise than Bitcoin Core. */
  formulaKey?: 'calculator.formulaMonero' | 'calculator.formulaKaspa';
}

export interface WebFamily {
  /** A line under a payout address field naming the family's address kinds, when it has one. */
  addressKindsKey?: 'validation.xmrKinds';
  /** The calculator's coins of this family (a listed coin on the family's hardware too). */
  calculator: readonly CalculatorCoin[];
  /** What a CPU hashes on the family's algorithm, said under Add Miner when a CPU picks it. */
  cpuNoteKey?: 'setupGuide.kaspa.cpu';
}
