import type { ComponentType } from 'react';

/** What a family's miner software section is given: the live port and the Stratum username. */
export interface MinersProps {
  host: string;
  port: number;
  /** The Stratum username `account.worker`. */
  username: string;
  worker: string;
}

/** A family's own components (the data is in family.ts, read by node tools too). */
export interface FamilyScreens {
  /** Its miner software and command lines, shown on its algorithm page once its port is live. */
  Miners?: ComponentType<MinersProps>;
}
