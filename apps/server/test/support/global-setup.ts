// Vitest's global set-up for the projects that start real peers (integration, e2e): fixtures that
// cost the same in every file are made once per machine here, before the first file runs.
import { prepareFundedKaspaSnapshot } from './coins/kaspa/funded-snapshot.js';

export default async function setup(): Promise<void> {
  const seconds = await prepareFundedKaspaSnapshot();
  if (seconds > 0)
    process.stdout.write(`[fixture] funded Kaspa dev chain snapshot made in ${seconds.toFixed(1)} s\n`);
}
