/** Coins, networks and their consensus parameters that the pool needs. */
import {
  COINS,
  COIN_TABLE,
  coinsOf,
  isOfFamily,
  type Algorithm,
  type Coin,
  type CoinOf,
} from './coin-table.js';

export {
  ALGORITHMS,
  SHARE_VALUE_RULES,
  ALGORITHM_TABLE,
  COINS,
  COIN_TABLE,
  FAMILIES,
  HASHRATE_UNITS,
  LISTED_COIN_TABLE,
  LISTED_COINS,
  coinsOf,
  familyOf,
  isAlgorithm,
  isOfFamily,
  type Algorithm,
  type AlgorithmRow,
  type Coin,
  type CoinOf,
  type Family,
  type HashrateUnit,
  type ListedCoin,
  type MinedCoinRow,
  type ShareValueRule,
} from './coin-table.js';

/**
 * Coins mined through getblocktemplate and paid by a Bitcoin-style node wallet (Bitcoin Core's
 * RPC, bcoin, litecoind): the rows of COIN_TABLE whose family is 'bitcoin'. The Monero family
 * (monerod templates, the XMRig Stratum dialect, monero-wallet-rpc payouts) is in
 * `@manjam/protocol/monero`.
 */
export type BitcoinFamilyCoin = CoinOf<'bitcoin'>;
export type MoneroFamilyCoin = CoinOf<'monero'>;
export const BITCOIN_FAMILY_COINS = coinsOf('bitcoin');

export function isBitcoinFamily(coin: Coin): coin is BitcoinFamilyCoin {
  return isOfFamily(coin, 'bitcoin');
}

export const NETWORKS = ['mainnet', 'testnet', 'regtest'] as const;
export type Network = (typeof NETWORKS)[number];

/** Consensus parameters of a Bitcoin-family coin (XMR's live in `@manjam/protocol/monero`). */
export interface CoinParams {
  coin: BitcoinFamilyCoin;
  network: Network;
  algorithm: Algorithm;
  /** Accepted bech32/bech32m human-readable parts (lower case). */
  bech32Hrps: string[];
  /** Accepted base58check version bytes of P2PKH addresses. */
  pubKeyHashVersions: number[];
  /** Accepted base58check version bytes of P2SH addresses. */
  scriptHashVersions: number[];
  /** Whether witness v1 (taproot) addresses are accepted: the node's wallet can pay them. */
  taproot: boolean;
  /** Whether the coin has MimbleWimble extension blocks (Litecoin). */
  mweb: boolean;
  /** Rules to pass to getblocktemplate. */
  gbtRules: string[];
  coinbaseMaturity: number;
  subsidyHalvingInterval: number;
  /** Block subsidy at height 0, in base units. */
  initialSubsidy: bigint;
}

/** What addresses of a coin on a network look like (and which of them its node pays). */
export interface AddressPrefixes {
  bech32Hrps: readonly string[];
  pubKeyHashVersions: readonly number[];
  scriptHashVersions: readonly number[];
  /** Whether witness v1 (taproot, bech32m) addresses are paid. */
  taproot: boolean;
}

// Bitcoin Core chainparams for mainnet and testnet. Litecoin Core chainparams: P2SH has a new
// version byte (M / Q) and the legacy one (3 / 2).
//
// BTC regtest is bcoin's, not Bitcoin Core's. Decision: the pool accepts only addresses its node can
// pay, and Manjam's Bitcoin regtest node is bcoin (the dev chain of the quickstart and of every test;
// Bitcoin Core is not a Debian package). bcoin's regtest (lib/protocol/networks.js) has its own
// prefixes: pubkeyhash 0x3c "R...", scripthash 0x26 "G...", bech32 "rb1...". Its wallet refuses
// Core's regtest addresses ("bcrt1...", "m/n...", "2...") in sendmany, so a payout run to one fails:
// they are refused at registration, in Settings and at Stratum login instead. bcoin 1.0 also
// encodes witness v1 with the old bech32 checksum and refuses a BIP350 "rb1p..." address, so
// taproot is refused on BTC regtest too. An operator with a Bitcoin Core regtest node would need
// Core's prefixes ("bcrt", 0x6f, 0xc4) here instead.
const PREFIXES: Record<BitcoinFamilyCoin, Record<Network, AddressPrefixes>> = {
  BTC: {
    mainnet: { bech32Hrps: ['bc'], pubKeyHashVersions: [0x00], scriptHashVersions: [0x05], taproot: true },
    testnet: { bech32Hrps: ['tb'], pubKeyHashVersions: [0x6f], scriptHashVersions: [0xc4], taproot: true },
    regtest: { bech32Hrps: ['rb'], pubKeyHashVersions: [0x3c], scriptHashVersions: [0x26], taproot: false },
  },
  LTC: {
    mainnet: {
      bech32Hrps: ['ltc'],
      pubKeyHashVersions: [0x30],
      scriptHashVersions: [0x32, 0x05],
      taproot: true,
    },
    testnet: {
      bech32Hrps: ['tltc'],
      pubKeyHashVersions: [0x6f],
      scriptHashVersions: [0x3a, 0xc4],
      taproot: true,
    },
    regtest: {
      bech32Hrps: ['rltc'],
      pubKeyHashVersions: [0x6f],
      scriptHashVersions: [0x3a, 0xc4],
      taproot: true,
    },
  },
};

const COIN_BASE: Record<BitcoinFamilyCoin, { mweb: boolean; gbtRules: string[]; halving: number }> = {
  BTC: { mweb: false, gbtRules: ['segwit'], halving: 210_000 },
  LTC: { mweb: true, gbtRules: ['mweb', 'segwit'], halving: 840_000 },
};

const REGTEST_HALVING = 150;
/** One coin in base units (BTC and LTC both have 8 decimals). */
const COIN = 10n ** BigInt(COIN_TABLE.BTC.decimals);

export function isCoin(value: string): value is Coin {
  return (COINS as readonly string[]).includes(value);
}

export function isNetwork(value: string): value is Network {
  return (NETWORKS as readonly string[]).includes(value);
}

export function algorithmOf(coin: Coin): Algorithm {
  return COIN_TABLE[coin].algorithm;
}

export function coinbaseMaturityOf(coin: Coin): number {
  return COIN_TABLE[coin].coinbaseMaturity;
}

/** The address prefixes of a coin on a network (the web's pre-check reads them through the contract). */
export function addressPrefixes(coin: BitcoinFamilyCoin, network: Network): AddressPrefixes {
  const p = PREFIXES[coin][network];
  return {
    bech32Hrps: [...p.bech32Hrps],
    pubKeyHashVersions: [...p.pubKeyHashVersions],
    scriptHashVersions: [...p.scriptHashVersions],
    taproot: p.taproot,
  };
}

/** The rules getblocktemplate must be asked with (Litecoin's node answers -8 without mweb). */
export function gbtRulesOf(coin: BitcoinFamilyCoin): string[] {
  return [...COIN_BASE[coin].gbtRules];
}

export function coinParams(coin: BitcoinFamilyCoin, network: Network): CoinParams {
  const base = COIN_BASE[coin];
  const prefixes = PREFIXES[coin][network];
  if (!base || !prefixes) throw new RangeError(`unknown coin/network: ${String(coin)}/${String(network)}`);
  return {
    coin,
    network,
    algorithm: COIN_TABLE[coin].algorithm,
    bech32Hrps: [...prefixes.bech32Hrps],
    pubKeyHashVersions: [...prefixes.pubKeyHashVersions],
    scriptHashVersions: [...prefixes.scriptHashVersions],
    taproot: prefixes.taproot,
    mweb: base.mweb,
    gbtRules: [...base.gbtRules],
    coinbaseMaturity: COIN_TABLE[coin].coinbaseMaturity,
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

/**
 * How a PPS+ share of `coin` is valued (COIN_TABLE's `shareValue`): by the subsidy at its height,
 * or by the recorded reward of the template it was mined on (0 when none was recorded; accounting
 * credits such a coin's shares only once their template reward is recorded).
 */
export function shareValuer(
  coin: Coin,
  network: Network,
): (height: number, templateReward: bigint | null) => bigint {
  if (COIN_TABLE[coin].shareValue === 'template-reward')
    return (_height, templateReward) => templateReward ?? 0n;
  if (!isBitcoinFamily(coin)) throw new RangeError(`${coin} has no subsidy schedule by height in protocol`);
  const params = coinParams(coin, network);
  return (height) => blockSubsidy(params, height);
}
