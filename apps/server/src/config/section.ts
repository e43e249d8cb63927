// What a coin family contributes to the process configuration (which itself names no coin).
// Each family's config/families/<family>.ts builds one FamilyConfig with the helpers below;
// config/families/index.ts gathers them, and config/schema.ts and config/load.ts mount what it
// gathered. This file imports no family and nothing of config/ but constants.ts, so a family's
// config file can use it without an import circle through config/index.ts.
import { portRowOfPoolCoin } from '@manjam/contract/tables';
import type { CoinOf, Family } from '@manjam/protocol';
import type { z } from 'zod';
import type { CoinId, PayoutScheme } from './constants.js';

/** How an environment variable's text becomes a config value (config/load.ts converts it). */
export type EnvType = 'string' | 'number' | 'boolean' | 'json';
/** One environment variable: the key path it overrides in the config file's object. */
export interface EnvKey {
  path: string[];
  type: EnvType;
}
/** Environment variables by name. */
export type EnvKeys = Record<string, EnvKey>;

/**
 * How long no node of a coin may stay silent before its work stops and its miners are sent to
 * their backup pools (`chains.<COIN>.nodeSilenceSeconds`'s default, every family alike).
 */
export const DEFAULT_NODE_SILENCE_SECONDS = 30;

/**
 * A port's variable share difficulty (stratum/vardiff.ts): the starting difficulty, its bounds,
 * the share interval aimed at, how often it may retarget and the band around the target left alone.
 */
export interface VardiffSettings {
  start: number;
  min: number;
  max: number;
  targetSeconds: number;
  retargetSeconds: number;
  variancePercent: number;
}

/** A Stratum port the embedded dev profile opens when `stratum.ports` is not configured. */
export interface DefaultStratumPort {
  port: number;
  coin: CoinId;
  scheme: PayoutScheme;
  vardiff: VardiffSettings;
  /** Every default port speaks Stratum V1; a V2 port is configured (coins/bitcoin/stratum-v2). */
  protocol: 'v1';
}

/** A family's part of the configuration. */
export interface FamilyConfig<F extends Family> {
  /** The `chains.<COIN>` section of each of the family's coins (a zod schema with its defaults). */
  chains: Record<CoinOf<F>, z.ZodType>;
  /** The environment variables that set keys of those sections. */
  env: EnvKeys;
  /** The family's default Stratum ports, in the coin table's order. */
  ports: DefaultStratumPort[];
}

/** One value per coin of a family, keyed by coin (the family's sections, named from the coin table). */
export function perCoin<C extends CoinId, T>(coins: readonly C[], value: (coin: C) => T): Record<C, T> {
  return Object.fromEntries(coins.map((coin) => [coin, value(coin)])) as Record<C, T>;
}

/**
 * The variables of a family's chain sections: for every coin and every `NAME` of `vars`,
 * `MANJAM_<COIN>_<NAME>` sets `chains.<COIN>.<path>` (path relative to the coin's section).
 */
export function coinEnv(coins: readonly CoinId[], vars: EnvKeys): EnvKeys {
  const keys: EnvKeys = {};
  for (const coin of coins) {
    for (const [name, { path, type }] of Object.entries(vars)) {
      keys[`MANJAM_${coin}_${name}`] = { path: ['chains', coin, ...path], type };
    }
  }
  return keys;
}

/**
 * A coin's default port: the contract's port table's number for the coin (the one the setup
 * guide shows), PPS+, and a vardiff that starts at `start` and never goes below `min`; every
 * coin retargets to a share each 15 s, looked at every 90 s with 30 % slack, up to 1e12.
 */
export function defaultStratumPort(
  coin: CoinId,
  vardiff: { start: number; min: number },
): DefaultStratumPort {
  return {
    port: portRowOfPoolCoin(coin).port,
    coin,
    scheme: 'pps-plus',
    protocol: 'v1',
    vardiff: { ...vardiff, max: 1e12, targetSeconds: 15, retargetSeconds: 90, variancePercent: 30 },
  };
}
