// What the start-up code and the shared parts may know of a coin family. Each family's folder
// (coins/bitcoin, coins/monero) implements it; nothing outside coins/ imports a family folder
// except the registry and the composition root (see docs/ARCHITECTURE.md, "Adding a coin family").
import type { Health } from '@manjam/contract';

/** /api/health's entry for one coin (its shape is the contract's). */
export type ChainHealth = Health['chains'][number];
