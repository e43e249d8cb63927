// The families' components, found in their own folders: each `coins/<family>/screens.ts` exports
// `screens` (a family without that file has none), so no list of families is kept here. The
// families' data is in registry.ts (one entry per family, checked by the compiler).
import { FAMILIES, type AlgorithmId, type Family } from '@manjam/contract';
import type { FamilyScreens } from './family-screens';
import { familyOfAlgorithm } from './registry';

export type { FamilyScreens, MinersProps } from './family-screens';

const MODULES = import.meta.glob<{ screens: FamilyScreens }>('./*/screens.ts', { eager: true });

function isFamily(name: string | undefined): name is Family {
  return FAMILIES.some((family) => family === name);
}

/** Each family folder's screens, by the folder's name (a folder that is no family is a mistake). */
const SCREENS: Partial<Record<Family, FamilyScreens>> = Object.fromEntries(
  Object.entries(MODULES).map(([path, module]) => {
    const folder = path.split('/')[1];
    if (!isFamily(folder)) throw new RangeError(`coins/${folder ?? ''}/screens.ts is in no family's folder`);
    return [folder, module.screens];
  }),
);

/** The components of the family mined on an API algorithm, if the pool mines one. */
export function screensOfAlgorithm(id: AlgorithmId): FamilyScreens | undefined {
  const family = familyOfAlgorithm(id);
  return family === undefined ? undefined : (SCREENS[family] ?? {});
}
