// The e2e project's global set-up, after the shared one (apps/server/test/support/global-setup.ts):
// the pool's first start (a migrated database, a mined bcoin chain) made once for every browser
// test file (pool-snapshot.ts). When it cannot be made, each pool makes its own as before.
import { preparePoolSnapshot } from './pool-snapshot.js';

export default async function setup(): Promise<void> {
  try {
    const seconds = await preparePoolSnapshot();
    process.stdout.write(
      `[fixture] e2e pool snapshot (migrated database, bcoin chain) made in ${seconds.toFixed(1)} s\n`,
    );
  } catch (error) {
    process.stdout.write(`[fixture] no e2e pool snapshot: ${(error as Error).message}\n`);
  }
}
