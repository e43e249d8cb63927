// Every coin family's part of the configuration: each family's file here (its chains.<COIN>
// sections, MANJAM_<COIN>_* variables and default Stratum ports) and this index, which
// config/schema.ts and config/load.ts mount. A new family adds its file, its line to BY_FAMILY and
// its spread to CHAIN_SECTIONS. The files import only zod, the coin table and config's own
// constants.ts and section.ts, so config imports nothing from coins/ (coins imports config: one
// direction, no folder loop).
import { FAMILIES, type Family } from '@manjam/protocol';
import type { z } from 'zod';
import type { CoinId } from '../constants.js';
import type { DefaultStratumPort, EnvKeys, FamilyConfig } from '../section.js';
import { bitcoinConfig } from './bitcoin.js';
import { kaspaConfig } from './kaspa.js';
import { moneroConfig } from './monero.js';

/** A family of the coin table without an entry does not compile. */
const BY_FAMILY = {
  bitcoin: bitcoinConfig,
  monero: moneroConfig,
  kaspa: kaspaConfig,
} satisfies { [F in Family]: FamilyConfig<F> };

/** The `chains` object's sections, each with its own type; a coin without one does not compile. */
export const CHAIN_SECTIONS = {
  ...BY_FAMILY.bitcoin.chains,
  ...BY_FAMILY.monero.chains,
  ...BY_FAMILY.kaspa.chains,
} satisfies Record<CoinId, z.ZodType>;

/** In the coin table's order (which is also the order of the default ports). */
const FAMILY_CONFIGS: readonly Omit<FamilyConfig<Family>, 'chains'>[] = FAMILIES.map((id) => BY_FAMILY[id]);

/** Every family's environment variables (MANJAM_<COIN>_*, MANJAM_KASPA_BIN_DIR). */
export const CHAIN_ENV: EnvKeys = Object.fromEntries(
  FAMILY_CONFIGS.flatMap((family) => Object.entries(family.env)),
);

/** The embedded dev profile's Stratum ports: each family's, in the coin table's order. */
export const DEFAULT_STRATUM_PORTS: DefaultStratumPort[] = FAMILY_CONFIGS.flatMap((family) => family.ports);
