// The server's lists of names, each taken from the one `as const` list that defines it
// (ARCHITECTURE: one list per union): coins and networks from the protocol's coin table, schemes
// and fee algorithms from the contract.
import { FEE_ALGORITHMS, PAYOUT_SCHEMES } from '@manjam/contract';
import { COINS, NETWORKS } from '@manjam/protocol';

export const COIN_IDS = COINS;
export type CoinId = (typeof COIN_IDS)[number];
export const NETWORK_IDS = NETWORKS;
export { PAYOUT_SCHEMES };
export type PayoutScheme = (typeof PAYOUT_SCHEMES)[number];
/** Algorithms with a fee (PORT_TABLE's `feeAlgorithm`, the API's ids); Manjam validates shares for sha256, scrypt and randomx. */
export const ALGORITHM_IDS = FEE_ALGORITHMS;
export const ROLES = ['all', 'stratum', 'api', 'accounting'] as const;
export type Role = (typeof ROLES)[number];
