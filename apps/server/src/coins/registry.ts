// Every coin family the pool runs. Adding a family is one line here (and its folder under coins/;
// see docs/ARCHITECTURE.md, "Adding a coin family"): a family of the coin table without an entry
// does not compile.
import { FAMILIES, type Family } from '@manjam/protocol';
import type { CoinFamily } from './family.js';
import { bitcoinFamily } from './bitcoin/family.js';
import { kaspaFamily } from './kaspa/family.js';
import { moneroFamily } from './monero/family.js';

const BY_ID: Record<Family, CoinFamily> = {
  bitcoin: bitcoinFamily,
  monero: moneroFamily,
  kaspa: kaspaFamily,
};

/** In the coin table's order (which is also start order). */
export const COIN_FAMILIES: readonly CoinFamily[] = FAMILIES.map((id) => BY_ID[id]);
