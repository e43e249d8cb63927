// The Kaspa family's part of the run's global set-up (test/support/global-setup.ts): the funded
// dev chain snapshot (funded-snapshot.ts), made once per machine; reported and left out when it
// cannot be made.
import { prepareFundedKaspaSnapshot } from './funded-snapshot.js';

export async function globalSetup(): Promise<void> {
  try {
    const seconds = await prepareFundedKaspaSnapshot();
    if (seconds > 0)
      process.stdout.write(`[fixture] funded Kaspa dev chain snapshot made in ${seconds.toFixed(1)} s\n`);
  } catch (error) {
    process.stdout.write(`[fixture] no funded Kaspa snapshot: ${(error as Error).message}\n`);
  }
}
