// The server's lists of names, each taken from the one `as const` list that defines it
// (ARCHITECTURE: one list per union): coins and networks from the protocol's coin table, schemes
// and fee algorithms from the contract.
import { FEE_ALGORITHMS, PAYOUT_SCHEMES, PORT_TABLE, type FeeAlgorithm } from '@manjam/contract/tables';
import { COINS, NETWORKS } from '@manjam/protocol';

export const COIN_IDS = COINS;
export type CoinId = (typeof COIN_IDS)[number];
export const NETWORK_IDS = NETWORKS;
export { PAYOUT_SCHEMES };
export type PayoutScheme = (typeof PAYOUT_SCHEMES)[number];
/** Algorithms with a fee (PORT_TABLE's `feeAlgorithm`, the API's ids); Manjam validates shares for sha256, scrypt and randomx. */
export const ALGORITHM_IDS = FEE_ALGORITHMS;
/** The pool's fee for an algorithm whose port-table rows publish none: 1.0 %. */
const STANDARD_FEE_BASIS_POINTS = 100;
/**
 * Default of accounting.feeBasisPoints: each fee algorithm's published fee in PORT_TABLE (its
 * first row that has one), else the pool's standard 1.0 %.
 */
export const DEFAULT_FEE_BASIS_POINTS = Object.fromEntries(
  FEE_ALGORITHMS.map((algorithm) => [
    algorithm,
    PORT_TABLE.find((row) => row.feeAlgorithm === algorithm && row.published)?.published?.feeBasisPoints ??
      STANDARD_FEE_BASIS_POINTS,
  ]),
) as Record<FeeAlgorithm, number>;
export const ROLES = ['all', 'stratum', 'api', 'accounting'] as const;
export type Role = (typeof ROLES)[number];
