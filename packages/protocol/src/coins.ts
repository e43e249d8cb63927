/** Coins, networks and their consensus parameters that the pool needs. */
import { COIN_DECIMALS } from './money.js';

export const ALGORITHMS = ['sha256d', 'scrypt'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

export const COINS = ['BTC', 'LTC'] as const;
export type Coin = (typeof COINS)[number];

export const NETWORKS = ['mainnet', 'testnet', 'regtest'] as const;
export type Network = (typeof NETWORKS)[number];

export interface CoinParams {
  coin: Coin;
  network: Network;
  algorithm: Algorithm;
  /** Accepted bech32/bech32m human-readable parts (lower case). */
  bech32Hrps: string[];
  /** Accepted base58check version bytes of P2PKH addresses. */
  pubKeyHashVersions: number[];
  /** Accepted base58check version bytes of P2SH addresses. */
  scriptHashVersions: number[];
  /** Whether the coin has MimbleWimble extension blocks (Litecoin). */
  mweb: boolean;
  /** Rules to pass to getblocktemplate. */
  gbtRules: string[];
  coinbaseMaturity: number;
  subsidyHalvingInterval: number;
  /** Block subsidy at height 0, in base units. */
  initialSubsidy: bigint;
}

interface Prefixes {
  bech32Hrps: string[];
  pubKeyHashVersions: number[];
  scriptHashVersions: number[];
}

// Bitcoin Core chainparams; bcoin's regtest uses its own prefixes (lib/protocol/networks.js:
// pubkeyhash 0x3c "R...", scripthash 0x26 "G...", bech32 "rb"), accepted beside Core's.
// Litecoin Core chainparams: P2SH has a new version byte (M / Q) and the legacy one (3 / 2).
const PREFIXES: Record<Coin, Record<Network, Prefixes>> = {
  BTC: {
    mainnet: { bech32Hrps: ['bc'], pubKeyHashVersions: [0x00], scriptHashVersions: [0x05] },
    testnet: { bech32Hrps: ['tb'], pubKeyHashVersions: [0x6f], scriptHashVersions: [0xc4] },
    regtest: {
      bech32Hrps: ['bcrt', 'rb'],
      pubKeyHashVersions: [0x6f, 0x3c],
      scriptHashVersions: [0xc4, 0x26],
    },
  },
  LTC: {
    mainnet: { bech32Hrps: ['ltc'], pubKeyHashVersions: [0x30], scriptHashVersions: [0x32, 0x05] },
    testnet: { bech32Hrps: ['tltc'], pubKeyHashVersions: [0x6f], scriptHashVersions: [0x3a, 0xc4] },
    regtest: { bech32Hrps: ['rltc'], pubKeyHashVersions: [0x6f], scriptHashVersions: [0x3a, 0xc4] },
  },
};

const COIN_BASE: Record<Coin, { algorithm: Algorithm; mweb: boolean; gbtRules: string[]; halving: number }> =
  {
    BTC: { algorithm: 'sha256d', mweb: false, gbtRules: ['segwit'], halving: 210_000 },
    LTC: { algorithm: 'scrypt', mweb: true, gbtRules: ['mweb', 'segwit'], halving: 840_000 },
  };

const REGTEST_HALVING = 150;
/** One coin in base units (BTC and LTC both have COIN_DECIMALS 8). */
const COIN = 10n ** BigInt(COIN_DECIMALS.BTC);

export function isCoin(value: string): value is Coin {
  return (COINS as readonly string[]).includes(value);
}

export function isNetwork(value: string): value is Network {
  return (NETWORKS as readonly string[]).includes(value);
}

export function algorithmOf(coin: Coin): Algorithm {
  return COIN_BASE[coin].algorithm;
}

export function coinParams(coin: Coin, network: Network): CoinParams {
  const base = COIN_BASE[coin];
  const prefixes = PREFIXES[coin][network];
  if (!base || !prefixes) throw new RangeError(`unknown coin/network: ${String(coin)}/${String(network)}`);
  return {
    coin,
    network,
    algorithm: base.algorithm,
    bech32Hrps: [...prefixes.bech32Hrps],
    pubKeyHashVersions: [...prefixes.pubKeyHashVersions],
    scriptHashVersions: [...prefixes.scriptHashVersions],
    mweb: base.mweb,
    gbtRules: [...base.gbtRules],
    coinbaseMaturity: 100,
    subsidyHalvingInterval: network === 'regtest' ? REGTEST_HALVING : base.halving,
    initialSubsidy: 50n * COIN,
  };
}

/** Block subsidy (without fees) at a height: halves every interval, zero after 64 halvings. */
export function blockSubsidy(params: CoinParams, height: number): bigint {
  if (!Number.isSafeInteger(height) || height < 0) throw new RangeError(`invalid block height: ${height}`);
  const halvings = Math.floor(height / params.subsidyHalvingInterval);
  if (halvings >= 64) return 0n;
  return params.initialSubsidy >> BigInt(halvings);
}
