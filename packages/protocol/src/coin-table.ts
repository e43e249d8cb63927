// The one positive coin table: every coin the pool mines names its family, algorithm,
// decimals, coinbase maturity and display unit here, and every coin list, family guard, decimals
// table and hashrate unit of protocol, contract, server and web is derived from it. A family is
// declared, never derived by negation: a row without a family (or with an unknown one) does not
// compile. Imports nothing, so the contract (and with it the web bundle) can take it.

/** Coin families: one Stratum dialect, chain runtime and wallet each (docs/ARCHITECTURE.md). */
export const FAMILIES = ['bitcoin', 'monero', 'kaspa'] as const;
export type Family = (typeof FAMILIES)[number];

/** Hashrate units from H/s up, each 1000 times the one before. */
export const HASHRATE_UNITS = ['H/s', 'kH/s', 'MH/s', 'GH/s', 'TH/s', 'PH/s', 'EH/s'] as const;
export type HashrateUnit = (typeof HASHRATE_UNITS)[number];

/**
 * Proof-of-work algorithms the pool validates shares for, by the protocol's id.
 * `hashesPerDifficulty`: expected hashes per unit of the pool's (Stratum) difficulty: 2^32 for
 * SHA-256d (Bitcoin's difficulty 1), 2^16 for Scrypt (the Stratum convention of Litecoin pools),
 * 1 for RandomX (Monero's difficulty counts hashes), 2^32 for kHeavyHash (the Kaspa Stratum
 * convention: difficulty 1 is the target 2^224 - 1, protocol/kaspa/stratum.ts). `label`: the name miners know it by.
 * `hashrateUnit`: the unit its miners count in (an ASIC in TH/s, a Scrypt ASIC in GH/s, a CPU in kH/s).
 * `diff1Target`: the share target of difficulty 1 (target.ts divides it by a difficulty): Bitcoin's
 * 0xffff * 2^208 for SHA-256d, 2^16 times easier for Scrypt; the whole range for RandomX
 * (difficulty D means one hash in D meets it: hash * D < 2^256, monerod's check_hash); 2^224 - 1
 * for kHeavyHash (the Kaspa pools' convention, kaspa-stratum-bridge's maxTarget).
 * `minShareDifficulty`: the lowest share difficulty ever sent: below it the share target no longer
 * fits the 64-bit target words real miners use (target > 0xffff * 2^240); Monero's difficulty is
 * an integer (no fractional shares).
 */
export const ALGORITHM_TABLE = {
  sha256d: {
    label: 'SHA-256',
    hashesPerDifficulty: 2 ** 32,
    hashrateUnit: 'TH/s',
    diff1Target: 0xffffn << 208n,
    minShareDifficulty: 2 ** -32,
  },
  scrypt: {
    label: 'Scrypt',
    hashesPerDifficulty: 2 ** 16,
    hashrateUnit: 'GH/s',
    diff1Target: 0xffffn << 224n,
    minShareDifficulty: 2 ** -16,
  },
  randomx: {
    label: 'RandomX',
    hashesPerDifficulty: 1,
    hashrateUnit: 'kH/s',
    diff1Target: (1n << 256n) - 1n,
    minShareDifficulty: 1,
  },
  kheavyhash: {
    label: 'kHeavyHash',
    hashesPerDifficulty: 2 ** 32,
    hashrateUnit: 'GH/s',
    diff1Target: (1n << 224n) - 1n,
    minShareDifficulty: 2 ** -32,
  },
} as const satisfies Record<string, AlgorithmRow>;

export interface AlgorithmRow {
  label: string;
  hashesPerDifficulty: number;
  hashrateUnit: HashrateUnit;
  diff1Target: bigint;
  minShareDifficulty: number;
}

export const ALGORITHMS = [
  'sha256d',
  'scrypt',
  'randomx',
  'kheavyhash',
] as const satisfies readonly (keyof typeof ALGORITHM_TABLE)[];
export type Algorithm = (typeof ALGORITHMS)[number];

export interface MinedCoinRow {
  family: Family;
  algorithm: Algorithm;
  /** Base-unit decimals: 8 (satoshis, litoshis, sompi), 12 (Monero's atomic units). */
  decimals: number;
  /**
   * Blocks before a coinbase can be spent: 100 on Bitcoin and Litecoin, 60 on Monero
   * (CRYPTONOTE_MINED_MONEY_UNLOCK_WINDOW), 1,000 DAA score on Kaspa (its "height" is the DAA
   * score): rusty kaspad's coinbase maturity since Crescendo, ten blocks a second (Go kaspad
   * v0.12's is 100; the larger one holds on both); a found block matures (is credited as final)
   * after it.
   */
  coinbaseMaturity: number;
  /**
   * What a PPS+ share is valued at: `height-subsidy`, the coin's subsidy schedule at the share's
   * height (Bitcoin, Litecoin: halvings by height); `template-reward`, the coinbase reward of the
   * template the share was mined on, recorded by the Stratum port (Monero's emission follows the
   * coins already issued, Kaspa's the DAA score and its monthly reduction table).
   */
  shareValue: ShareValueRule;
  /**
   * The payout threshold an account gets by default and the range it may choose, in coin units
   * as decimal strings (what an operator writes in the config file, which may override each).
   * BTC, LTC and XMR keep the old pool default (0.01) and its smallest choice (0.001) as the
   * minimum, so every threshold saved before stays valid; the maximum is a typo guard (a balance
   * above it is still paid at the threshold chosen). KAS: 1 KAS minimum, because Kaspa's storage
   * mass (KIP-9) makes an output of a fraction of a KAS cost more than it carries, and 10 by default.
   */
  payoutThreshold: { minimum: string; default: string; maximum: string };
}

export const SHARE_VALUE_RULES = ['height-subsidy', 'template-reward'] as const;
export type ShareValueRule = (typeof SHARE_VALUE_RULES)[number];

/** Coins Manjam mines and pays, in the order every list shows them. */
export const COIN_TABLE = {
  BTC: {
    family: 'bitcoin',
    algorithm: 'sha256d',
    decimals: 8,
    coinbaseMaturity: 100,
    shareValue: 'height-subsidy',
    payoutThreshold: { minimum: '0.001', default: '0.01', maximum: '100' },
  },
  LTC: {
    family: 'bitcoin',
    algorithm: 'scrypt',
    decimals: 8,
    coinbaseMaturity: 100,
    shareValue: 'height-subsidy',
    payoutThreshold: { minimum: '0.001', default: '0.01', maximum: '10000' },
  },
  XMR: {
    family: 'monero',
    algorithm: 'randomx',
    decimals: 12,
    coinbaseMaturity: 60,
    shareValue: 'template-reward',
    payoutThreshold: { minimum: '0.001', default: '0.01', maximum: '10000' },
  },
  KAS: {
    family: 'kaspa',
    algorithm: 'kheavyhash',
    decimals: 8,
    coinbaseMaturity: 1_000,
    shareValue: 'template-reward',
    payoutThreshold: { minimum: '1', default: '10', maximum: '10000000' },
  },
} as const satisfies Record<string, MinedCoinRow>;

/** The mined coins as a tuple, in table order (checked against the table in coin-table.test.ts). */
export const COINS = ['BTC', 'LTC', 'XMR', 'KAS'] as const satisfies readonly (keyof typeof COIN_TABLE)[];
export type Coin = (typeof COINS)[number];

/**
 * Coins an account may name (the seed's registration select) but the pool does not mine yet:
 * only their decimals, to show amounts. A coin moves to COIN_TABLE when its family exists.
 */
export const LISTED_COIN_TABLE = {
  DOGE: { decimals: 8 },
  KDA: { decimals: 12 },
} as const satisfies Record<string, { decimals: number }>;
export const LISTED_COINS = ['DOGE', 'KDA'] as const satisfies readonly (keyof typeof LISTED_COIN_TABLE)[];
export type ListedCoin = (typeof LISTED_COINS)[number];

// Every key of a table is in its tuple (a row left out of COINS or ALGORITHMS does not compile).
const _everyCoinListed: Record<Exclude<keyof typeof COIN_TABLE, Coin>, never> = {};
const _everyListedCoinListed: Record<Exclude<keyof typeof LISTED_COIN_TABLE, ListedCoin>, never> = {};
const _everyAlgorithmListed: Record<Exclude<keyof typeof ALGORITHM_TABLE, Algorithm>, never> = {};

/** The coins of a family, as a type: `CoinOf<'monero'>` is 'XMR'. */
export type CoinOf<F extends Family> = {
  [C in Coin]: (typeof COIN_TABLE)[C]['family'] extends F ? C : never;
}[Coin];

export function isAlgorithm(value: string): value is Algorithm {
  return (ALGORITHMS as readonly string[]).includes(value);
}

export function familyOf(coin: Coin): Family {
  return COIN_TABLE[coin].family;
}

/** The coins of a family, in table order. */
export function coinsOf<F extends Family>(family: F): CoinOf<F>[] {
  return COINS.filter((coin): coin is CoinOf<F> => COIN_TABLE[coin].family === family);
}

/** Whether `coin` belongs to `family` (a type guard usable with any family of the table). */
export function isOfFamily<F extends Family>(coin: Coin, family: F): coin is CoinOf<F> {
  return COIN_TABLE[coin].family === family;
}
