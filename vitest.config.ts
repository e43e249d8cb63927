import { defineConfig } from 'vitest/config';

// Three tiers (see docs/ARCHITECTURE.md): unit tests beside the code, integration tests
// (*.int.test.ts) against real PostgreSQL/PGlite and real regtest nodes, and browser e2e.
// In one Vitest process the projects run one group after another (groupOrder): unit, web,
// integration, e2e. `npm test` (scripts/test-tiers.mjs) runs integration and e2e side by side in
// two processes instead: each alone leaves about a quarter of the machine idle.
/**
 * Integration and e2e tests run against real nodes, databases and a browser on a 2-core machine
 * with two Vitest processes side by side; a test that fails is run once more before it counts as
 * failed. A test that passes only on its second try is not hidden: `npm test` lists it with its
 * first failure under "passed only on a second try" and counts it in its closing line (a flake to
 * mend, see docs/ARCHITECTURE.md). Unit and web tests get no second try.
 */
const SECOND_TRY = 1;
/** Fixtures made once per machine before the first file of a project with real peers (a funded Kaspa chain). */
const GLOBAL_SETUP = 'apps/server/test/support/global-setup.ts';
/** The browser tests' pool's first start (a migrated database, a mined bcoin chain), made once per run. */
const E2E_SETUP = 'e2e/support/global-setup.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
          // Vitest's default on 2 cores is one worker: two run the tier in 92 s instead of 142 s.
          maxWorkers: 2,
          // A worker runs file after file in one module cache (47 s instead of 92 s): no file may
          // leave module state behind it; each builds what it tests in its own hooks.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'apps/server/src/**/*.int.test.ts',
            'apps/server/test/**/*.int.test.ts',
            'packages/*/src/**/*.int.test.ts',
          ],
          environment: 'node',
          globalSetup: [GLOBAL_SETUP],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          retry: SECOND_TRY,
          // Regtest nodes and database servers are heavy on a 2-core machine.
          maxWorkers: 2,
          fileParallelism: true,
          sequence: { groupOrder: 2 },
        },
      },
      'apps/web/vitest.config.ts',
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          environment: 'node',
          globalSetup: [GLOBAL_SETUP, E2E_SETUP],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          retry: SECOND_TRY,
          fileParallelism: false,
          // Tests a file marks concurrent (browser contexts of one pool) run two at a time: two cores.
          maxConcurrency: 2,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
