// The tiers of `npm test -- <tier>` and the timing report every run writes. Plain Node: runs
// before and after Vitest, reads Vitest's JSON report.
import { writeFileSync } from 'node:fs';
import { FAMILIES } from './families.mjs';

/**
 * A tier is a set of Vitest arguments (projects and path filters), whether the typecheck and
 * lint run before it, and whether it needs the real peers (`servers: false`: no PostgreSQL, coin
 * node, translator or web build is installed or started for it). `all` (no argument) is what CI
 * runs. Path filters match any test file whose path contains them, so an area takes its unit
 * tests as well as its integration tests.
 *
 * `stages` (instead of `vitest`): Vitest runs one stage after another, the runs of a stage side
 * by side, each its own Vitest process. `all` runs the integration and browser projects side by
 * side: each leaves a core partly idle while its files wait on nodes, timers and the browser (27 %
 * of the machine idle through the integration project alone, measured 2026-12-07), and Vitest
 * cannot run two projects of different worker counts at once in one process.
 */
export const TIERS = {
  all: {
    checks: 'full',
    stages: [
      [['--project', 'unit', '--project', 'web']],
      [
        ['--project', 'integration'],
        ['--project', 'e2e'],
      ],
    ],
    about: 'typecheck, lint and every Vitest project (CI)',
  },
  fast: {
    checks: 'incremental',
    servers: false,
    vitest: ['--project', 'unit', '--project', 'web'],
    about: 'typecheck (incremental), lint, unit and web component tests: no node, no database',
  },
  unit: {
    checks: 'none',
    servers: false,
    vitest: ['--project', 'unit'],
    about: 'unit tests of the server and packages',
  },
  web: {
    checks: 'none',
    servers: false,
    vitest: ['--project', 'web'],
    about: 'React components and browser-side logic',
  },
  integration: { checks: 'none', vitest: ['--project', 'integration'], about: 'every *.int.test.ts' },
  e2e: { checks: 'none', vitest: ['--project', 'e2e'], about: 'the browser tests (Chromium, a whole pool)' },
  stratum: {
    checks: 'none',
    vitest: ['apps/server/src/stratum/', '/stratum/', '/stratum-v2/', 'apps/server/src/shares/'],
    about: 'the Stratum kit, every dialect and the share path',
  },
  money: {
    checks: 'none',
    vitest: ['apps/server/src/accounting/', 'payout', 'wallet', 'money'],
    about: 'credits, blocks, settlement, payouts and the wallets',
  },
  api: {
    checks: 'none',
    vitest: [
      'apps/server/src/http/',
      'apps/server/src/services/',
      'apps/server/src/db/',
      'packages/contract/',
    ],
    about: 'HTTP routes, services and the database',
  },
  regions: {
    checks: 'none',
    vitest: ['apps/server/src/sharelog/', 'apps/server/src/jobfeed/', '/jobfeed/', 'multi-process'],
    about: 'the distributed mode: share log, job feed, NATS',
  },
  // One per coin family (scripts/families/): its folders' tests.
  ...Object.fromEntries(
    FAMILIES.map((family) => [
      family.name,
      { checks: 'none', vitest: family.tier.vitest, about: family.tier.about },
    ]),
  ),
};

/** The tier an argument list asks for, and the rest of it (passed on to Vitest). */
export function tierOf(args) {
  const [first, ...rest] = args;
  if (first !== undefined && Object.hasOwn(TIERS, first)) return { name: first, tier: TIERS[first], rest };
  // Anything else (a file, a Vitest flag) goes to Vitest as it is, without typecheck and lint.
  return args.length === 0
    ? { name: 'all', tier: TIERS.all, rest: [] }
    : {
        name: 'custom',
        tier: { checks: 'none', vitest: [], about: 'arguments passed to Vitest' },
        rest: args,
      };
}

export function tiersHelp() {
  return Object.entries(TIERS)
    .map(([name, tier]) => `  npm test -- ${name.padEnd(12)} ${tier.about}`)
    .join('\n');
}

const seconds = (ms) => (ms / 1000).toFixed(1);

/** The first part of the timing report: each set-up step's wall time (scripts/test-timing.mjs adds the files). */
export function stepsReport(steps) {
  return [
    '| step | wall s |',
    '| --- | ---: |',
    ...steps.map((step) => `| ${step.name} | ${seconds(step.ms)} |`),
  ].join('\n');
}

export function writeTimingReport(path, text) {
  writeFileSync(path, `${text}\n`);
}
