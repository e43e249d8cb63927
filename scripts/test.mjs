// `npm test`: installs what the tests need (the Debian packages and tools each coin family names
// in scripts/families/, chromium, nats-server; npm packages, PostgreSQL), builds the web app for
// the browser tests, then runs one tier: by default typecheck, lint and every Vitest project (CI);
// `npm test -- <tier>` runs one tier (scripts/test-tiers.mjs: fast, unit, web, integration, e2e,
// stratum, money, api, regions, and one per family); any other arguments go to Vitest as they are. Every run writes a
// timing report (node_modules/.cache/manjam-timing.md) and prints it.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, ensureNodeModules, ensureSystemPackages, ensureWebBuild, log, run, runAsync } from './lib.mjs';
import { ensurePostgres } from './ensure-postgres.mjs';
import { FAMILIES } from './families.mjs';
import { BUILD_PACKAGES, CHAIN_PACKAGES } from './install-system-deps.mjs';
import { stepsReport, tierOf, tiersHelp, writeTimingReport } from './test-tiers.mjs';
import { fileTimingReport } from './test-timing.mjs';
import { FILE_TIMES_DIR } from './timing-reporter.mjs';

const { name: tierName, tier, rest } = tierOf(process.argv.slice(2));
if (rest[0] === '--help' || rest[0] === '-h') {
  console.log(`npm test [-- <tier> | -- <vitest arguments>]\n${tiersHelp()}`);
  process.exit(0);
}
const cache = join(ROOT, 'node_modules', '.cache');
/** Each Vitest run's JSON report (one per run of the tier's stages). */
const reportOf = (run) => join(cache, `manjam-vitest-${run}.json`);
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
/**
 * The run's shared fixtures (each family's global-setup.ts: prepared dev chains), made before
 * Vitest runs side by side: each run's global set-up then finds them made instead of both making
 * them at once.
 */
function makeFixtures() {
  run(process.execPath, [
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    "const setup = await import('./apps/server/test/support/global-setup.ts'); await setup.default();",
  ]);
}
/** The Vitest runs of a stage side by side; rejects when any failed, after all ended. */
async function runStage(stage, first) {
  const runs = stage.map((args, index) => {
    const id = first + index;
    return runAsync(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--reporter=default',
        '--reporter=json',
        `--reporter=${join(ROOT, 'scripts', 'timing-reporter.mjs')}`,
        `--outputFile.json=${reportOf(id)}`,
        ...args,
        ...rest,
      ],
      { env: { ...process.env, MANJAM_FILE_TIMES: join(FILE_TIMES_DIR, `${id}.json`) } },
    );
  });
  const failed = (await Promise.allSettled(runs)).find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}
/** Every Vitest run's JSON report of this tier, merged: the counts summed, the files listed. */
function mergedReport(runs) {
  const reports = Array.from({ length: runs }, (_, id) => reportOf(id))
    .filter((path) => existsSync(path))
    .map((path) => JSON.parse(readFileSync(path, 'utf8')));
  if (reports.length === 0) return undefined;
  const sum = (key) => reports.reduce((total, report) => total + report[key], 0);
  const tests = reports.flatMap((report) =>
    report.testResults.flatMap((file) => file.assertionResults.map((test) => ({ file: file.name, test }))),
  );
  return {
    numPassedTests: sum('numPassedTests'),
    numFailedTests: sum('numFailedTests'),
    numPendingTests: sum('numPendingTests'),
    testResults: reports.flatMap((report) => report.testResults),
    // Passed, with a failure from a first try (vitest.config.ts: SECOND_TRY).
    secondTry: tests.filter(({ test }) => test.status === 'passed' && test.failureMessages.length > 0),
  };
}
/** The tests that passed only on a second try, each with the first line of its first failure. */
function secondTryReport(secondTry) {
  if (secondTry.length === 0) return '';
  /** A table cell: a `|` inside it escaped. */
  const cell = (text) => text.replace(/\|/g, '\\|');
  const rows = secondTry.map(({ file, test }) => {
    const first = (test.failureMessages[0] ?? '').split('\n')[0];
    return `| ${relative(ROOT, file)} | ${cell(test.fullName)} | ${cell(first)} |`;
  });
  return [
    'passed only on a second try (a flake to mend):',
    '',
    '| file | test | first failure |',
    '| --- | --- | --- |',
    ...rows,
  ].join('\n');
}
const stages = tier.stages ?? [[tier.vitest]];
const runCount = stages.flat().length;
let exitCode = 0;
// The last run's reports go first: a run stopped before Vitest prints no stale figures.
if (existsSync(cache))
  for (const name of readdirSync(cache))
    if (/^manjam-vitest(-\d+)?\.json$/.test(name)) rmSync(join(cache, name), { force: true });
rmSync(FILE_TIMES_DIR, { recursive: true, force: true });
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
  if (servers && stages.some((stage) => stage.length > 1)) step('shared fixtures', makeFixtures);
  let first = 0;
  let failedStage;
  for (const stage of stages) {
    // Named by its projects: "vitest integration and e2e" for two runs side by side.
    const name = [
      'vitest',
      stage.map((args) => args.filter((a) => !a.startsWith('-')).join('+')).join(' and '),
    ]
      .join(' ')
      .trim();
    log(name);
    // A failed stage does not stop the next: the whole report says everything that failed.
    await step(name, () => runStage(stage, first)).catch((error) => {
      failedStage ??= error;
    });
    first += stage.length;
  }
  if (failedStage) throw failedStage;
} catch (error) {
  log(error.message);
  exitCode = 1;
}
try {
  const result = mergedReport(runCount);
  if (!result) throw new Error('no Vitest report');
  const text = [stepsReport(steps), fileTimingReport(), secondTryReport(result.secondTry)]
    .filter(Boolean)
    .join('\n\n');
  writeTimingReport(timing, text);
  console.log(`\n${text}\n\n(timing report: ${timing})`);
  // One plain closing line that CI can read.
  // A file whose hooks failed fails the run with no failed test of its own: it is counted apart.
  const failedFiles = result.testResults.filter((file) => file.status === 'failed').length;
  console.log(
    `tests: ${result.numPassedTests} passed (${result.secondTry.length} only on a second try), ` +
      `${result.numFailedTests} failed, ` +
      `${result.numPendingTests} skipped; files: ${failedFiles} failed of ${result.testResults.length}`,
  );
} catch {
  // No report: the run stopped before Vitest.
}
process.exit(exitCode);
