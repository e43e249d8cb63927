// The Monero family's part of the run's global set-up (test/support/global-setup.ts): the dev
// chain snapshot (chain-snapshot.ts), made once per machine; reported and left out when it
// cannot be made.
import { prepareMoneroSnapshot } from './chain-snapshot.js';

export async function globalSetup(): Promise<void> {
  try {
    const seconds = await prepareMoneroSnapshot();
    if (seconds > 0)
      process.stdout.write(`[fixture] Monero dev chain snapshot made in ${seconds.toFixed(1)} s\n`);
  } catch (error) {
    process.stdout.write(`[fixture] no Monero dev chain snapshot: ${(error as Error).message}\n`);
  }
}
