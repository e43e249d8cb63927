// The web's registry of coin families (data: no React, so node tools and benchmarks may import it);
// their components are in screens.ts. A family of the coin table without an entry here does not
// compile. Screens ask the registry instead of naming a coin or a family.
import {
  FAMILIES,
  familyOf,
  isPoolCoin,
  portRowOfAccountAlgorithm,
  type AccountCoin,
  type AlgorithmId,
  type Family,
  type PoolCoin,
} from '@manjam/contract';
import { bitcoin } from './bitcoin';
import type bitcoinTexts from './bitcoin/texts.en.json';
import type { CalculatorCoin, WebFamily } from './family';
import { kaspa } from './kaspa';
import type kaspaTexts from './kaspa/texts.en.json';
import { monero } from './monero';
import type moneroTexts from './monero/texts.en.json';

export type { CalculatorCoin, WebFamily } from './family';

const WEB_FAMILIES: Record<Family, WebFamily> = { bitcoin, monero, kaspa };

/** A type over every family of the coin table: one without an entry does not compile. */
type EveryFamily<T extends Record<Family, object>> = T;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Each family's English strings (its texts.en.json, merged by i18n/index.ts), for the key types. */
type TextsByFamily = EveryFamily<{
  bitcoin: typeof bitcoinTexts;
  monero: typeof moneroTexts;
  kaspa: typeof kaspaTexts;
}>;

/** Every family's own translation keys (i18next.d.ts adds them to the shell's and the screens'). */
export type FamilyTranslations = Intersection<TextsByFamily[Family]>;

export function webFamilyOf(coin: PoolCoin): WebFamily {
  return WEB_FAMILIES[familyOf(coin)];
}

/** The line on address kinds under a payout address field, where the coin's family has one. */
export function addressKindsKey(coin: AccountCoin): WebFamily['addressKindsKey'] {
  return isPoolCoin(coin) ? webFamilyOf(coin).addressKindsKey : undefined;
}

/** The family of the pool coin mined on an API algorithm (`kaspa` -> Kaspa), if the pool mines one. */
export function familyOfAlgorithm(id: AlgorithmId): Family | undefined {
  const coin = portRowOfAccountAlgorithm(id)?.coin;
  return coin !== undefined && isPoolCoin(coin) ? familyOf(coin) : undefined;
}

/** The web module of the family mined on an API algorithm, if the pool mines one. */
export function webFamilyOfAlgorithm(id: AlgorithmId): WebFamily | undefined {
  const family = familyOfAlgorithm(id);
  return family === undefined ? undefined : WEB_FAMILIES[family];
}

/** The calculator's coins: the pool's coins first (coin-table order), then the listed ones. */
export const CALCULATOR_COINS: readonly CalculatorCoin[] = FAMILIES.flatMap(
  (family) => WEB_FAMILIES[family].calculator,
).sort((a, b) => Number(!isPoolCoin(a.coin)) - Number(!isPoolCoin(b.coin)));

export type CalcCoin = (typeof CALCULATOR_COINS)[number]['coin'];
