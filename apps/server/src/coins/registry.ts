// Every coin family the pool runs. Adding a family is one line in each record here (and its
// folder under coins/; see docs/ARCHITECTURE.md, "Adding a coin family"): a family of the coin
// table without an entry does not compile.
import { FAMILIES, type Family } from '@manjam/protocol';
import type { CoinFamily } from './family.js';
import type { FamilyTexts } from './texts.js';
import { bitcoinFamily } from './bitcoin/family.js';
import { bitcoinTexts } from './bitcoin/texts.js';
import { kaspaFamily } from './kaspa/family.js';
import { kaspaTexts } from './kaspa/texts.js';
import { moneroFamily } from './monero/family.js';
import { moneroTexts } from './monero/texts.js';

const BY_ID: Record<Family, CoinFamily> = {
  bitcoin: bitcoinFamily,
  monero: moneroFamily,
  kaspa: kaspaFamily,
};

/** Each family's words on the shared server (coins/<family>/texts.ts). */
const TEXTS: Record<Family, FamilyTexts> = {
  bitcoin: bitcoinTexts,
  monero: moneroTexts,
  kaspa: kaspaTexts,
};

/** In the coin table's order (which is also start order). */
export const COIN_FAMILIES: readonly CoinFamily[] = FAMILIES.map((id) => BY_ID[id]);

/** The families' texts, in the coin table's order: the catalogs and the assistant merge them. */
export const FAMILY_TEXTS: readonly FamilyTexts[] = FAMILIES.map((id) => TEXTS[id]);
