// The one list of each kind of name used across the server (ARCHITECTURE: one `as const` list).
export const COIN_IDS = ['BTC', 'LTC'] as const;
export type CoinId = (typeof COIN_IDS)[number];
export const NETWORK_IDS = ['mainnet', 'testnet', 'regtest'] as const;
export const PAYOUT_SCHEMES = ['pps-plus', 'pplns', 'solo'] as const;
export type PayoutScheme = (typeof PAYOUT_SCHEMES)[number];
/** Algorithms whose fees the seed lists; Manjam validates shares for sha256 and scrypt. */
export const ALGORITHM_IDS = ['sha256', 'scrypt', 'kadena', 'kaspa'] as const;
export const ROLES = ['all', 'stratum', 'api', 'accounting'] as const;
export type Role = (typeof ROLES)[number];
