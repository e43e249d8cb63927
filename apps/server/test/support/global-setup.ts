// Vitest's global set-up for the projects that start real peers (integration, e2e): fixtures that
// cost the same in every file are made once per machine here, before the first file runs. A
// fixture that cannot be made is reported and left out: each test then makes its own as before
// (and fails with its own words when the peer is broken).
import { prepareFundedKaspaSnapshot } from './coins/kaspa/funded-snapshot.js';

export default async function setup(): Promise<void> {
  try {
    const seconds = await prepareFundedKaspaSnapshot();
    if (seconds > 0)
      process.stdout.write(`[fixture] funded Kaspa dev chain snapshot made in ${seconds.toFixed(1)} s\n`);
  } catch (error) {
    process.stdout.write(`[fixture] no funded Kaspa snapshot: ${(error as Error).message}\n`);
  }
}
