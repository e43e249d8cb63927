// Vitest's global set-up for the projects that start real peers (integration, e2e): fixtures that
// cost the same in every file are made once per machine here, before the first file runs, by each
// family's coins/<family>/global-setup.ts. A fixture that cannot be made is reported and left
// out: each test then makes its own as before (and fails with its own words when the peer is broken).
import { familySupportFiles, type GlobalSetupFamily } from './families.js';

export default async function setup(): Promise<void> {
  for (const family of await familySupportFiles<GlobalSetupFamily>('global-setup.ts'))
    await family.globalSetup();
}
