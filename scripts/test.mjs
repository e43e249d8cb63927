// `npm test`: installs what the tests need (the Debian packages and tools each coin family names
// in scripts/families/, chromium, nats-server; npm packages, PostgreSQL), builds the web app for
// the browser tests, then runs one tier: by default typecheck, lint and every Vitest project (CI);
// `npm test -- <tier>` runs one tier (scripts/test-tiers.mjs: fast, unit, web, integration, e2e,
// stratum, money, api, regions, and one per family); any other arguments go to Vitest as they are. Every run writes a
// timing report (node_modules/.cache/manjam-timing.md) and prints it.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, ensureNodeModules, ensureSystemPackages, ensureWebBuild, log, run, runAsync } from './lib.mjs';
import { ensurePostgres } from './ensure-postgres.mjs';
import { FAMILIES } from './families.mjs';
import { BUILD_PACKAGES, CHAIN_PACKAGES } from './install-system-deps.mjs';
import { stepsReport, tierOf, tiersHelp, writeTimingReport } from './test-tiers.mjs';
import { fileTimingReport } from './test-timing.mjs';
import { FILE_TIMES } from './timing-reporter.mjs';

const { name: tierName, tier, rest } = tierOf(process.argv.slice(2));
if (rest[0] === '--help' || rest[0] === '-h') {
  console.log(`npm test [-- <tier> | -- <vitest arguments>]\n${tiersHelp()}`);
  process.exit(0);
}
const cache = join(ROOT, 'node_modules', '.cache');
const report = join(cache, 'manjam-vitest.json');
const timing = join(cache, 'manjam-timing.md');
/** Wall time of each step of this run, for the timing report. */
const steps = [];
function step(name, action) {
  const started = performance.now();
  const record = () => steps.push({ name, ms: performance.now() - started });
  let result;
  try {
    result = action();
  } catch (error) {
    record();
    throw error;
  }
  if (result instanceof Promise) return result.finally(record);
  record();
  return result;
}
/** The TypeScript projects, each typechecked on its own (`npm run typecheck` lists the same). */
const PROJECTS = [
  'packages/protocol',
  'packages/randomx',
  'packages/contract',
  'apps/server',
  'apps/web',
  'e2e',
  'bench',
];
/** Incremental typecheck: each project keeps its build info under node_modules/.cache/tsc. */
async function typecheckIncremental() {
  mkdirSync(join(cache, 'tsc'), { recursive: true });
  for (const project of PROJECTS) {
    const info = join(cache, 'tsc', `${project.replace(/\//g, '-')}.tsbuildinfo`);
    await runAsync(process.execPath, [
      join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      project,
      '--noEmit',
      '--incremental',
      '--tsBuildInfoFile',
      info,
    ]);
  }
}
/** PostgreSQL, the families' tools and the web build: what integration and e2e tests need. */
async function startServers() {
  await step('PostgreSQL', ensurePostgres);
  // What each family builds for its dev chain, then for its tests only; a tool that cannot be
  // built says so (the tests that need it fail with the same message), and the rest runs.
  const tools = [
    ...FAMILIES.flatMap((family) => family.tools),
    ...FAMILIES.flatMap((family) => family.testTools),
  ];
  for (const tool of tools) log(await step(tool.name, () => tool.ensure()));
  step('web build', ensureWebBuild);
}
let exitCode = 0;
// The last run's report goes first: a run stopped before Vitest prints no stale figures.
rmSync(report, { force: true });
rmSync(FILE_TIMES, { force: true });
try {
  log(`tier ${tierName}: ${tier.about}`);
  const servers = tier.servers !== false;
  // Before npm: `npm ci` builds the RandomX addon against librandomx-dev.
  await step('system packages', () =>
    ensureSystemPackages(servers ? [...CHAIN_PACKAGES, 'chromium', 'nats-server'] : BUILD_PACKAGES),
  );
  step('npm packages', ensureNodeModules);
  if (servers) await startServers();
  // Typecheck and lint side by side (each keeps about one core busy); both finish before Vitest.
  const checks = [];
  if (tier.checks === 'full') {
    log('typecheck and lint');
    checks.push(step('typecheck', () => runAsync('npm', ['run', '--silent', 'typecheck'])));
  } else if (tier.checks === 'incremental') {
    log('typecheck (incremental) and lint');
    checks.push(step('typecheck', typecheckIncremental));
  }
  if (tier.checks !== 'none') checks.push(step('lint', () => runAsync('npm', ['run', '--silent', 'lint'])));
  const failedCheck = (await Promise.allSettled(checks)).find((check) => check.status === 'rejected');
  if (failedCheck) throw failedCheck.reason;
  log('vitest');
  step('vitest', () =>
    run(process.execPath, [
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--reporter=${join(ROOT, 'scripts', 'timing-reporter.mjs')}`,
      `--outputFile.json=${report}`,
      ...tier.vitest,
      ...rest,
    ]),
  );
} catch (error) {
  log(error.message);
  exitCode = 1;
}
try {
  const result = JSON.parse(readFileSync(report, 'utf8'));
  const text = [stepsReport(steps), fileTimingReport()].join('\n\n');
  writeTimingReport(timing, text);
  console.log(`\n${text}\n\n(timing report: ${timing})`);
  // One plain closing line that CI can read.
  // A file whose hooks failed fails the run with no failed test of its own: it is counted apart.
  const failedFiles = result.testResults.filter((file) => file.status === 'failed').length;
  console.log(
    `tests: ${result.numPassedTests} passed, ${result.numFailedTests} failed, ` +
      `${result.numPendingTests} skipped; files: ${failedFiles} failed of ${result.testResults.length}`,
  );
} catch {
  // No report: the run stopped before Vitest.
}
process.exit(exitCode);
