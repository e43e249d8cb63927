import { KaspaMiners } from './Miners';
import type { FamilyScreens } from '../family-screens';

/** KS ASICs, lolMiner and BzMiner with their command lines; a CPU is told how little it hashes. */
export const screens: FamilyScreens = { Miners: KaspaMiners };
