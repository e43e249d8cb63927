// The families' components, one entry per family (a family without one does not compile); the
// families' data is in registry.ts.
import type { AlgorithmId, Family } from '@manjam/contract';
import type { FamilyScreens } from './family-screens';
import { kaspaScreens } from './kaspa/screens';
import { familyOfAlgorithm } from './registry';

export type { FamilyScreens, MinersProps } from './family-screens';

const SCREENS: Record<Family, FamilyScreens> = { bitcoin: {}, monero: {}, kaspa: kaspaScreens };

/** The components of the family mined on an API algorithm, if the pool mines one. */
export function screensOfAlgorithm(id: AlgorithmId): FamilyScreens | undefined {
  const family = familyOfAlgorithm(id);
  return family === undefined ? undefined : SCREENS[family];
}
