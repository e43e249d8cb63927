// `npm test`: installs what the tests need (Debian packages litecoind, monero, librandomx-dev,
// chromium, nats-server; kaspad built with Go; SRI's Stratum V2 translator built with cargo;
// npm packages, PostgreSQL), builds the web app for the browser tests, then runs typecheck, lint
// and every Vitest project.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, ensureNodeModules, ensureSystemPackages, ensureWebBuild, log, run } from './lib.mjs';
import { ensurePostgres } from './ensure-postgres.mjs';
import { ensureKaspad } from './kaspad.mjs';
import { ensureTranslator } from './sri.mjs';

const args = process.argv.slice(2);
const report = join(ROOT, 'node_modules', '.cache', 'manjam-vitest.json');
let exitCode = 0;
try {
  // Before npm: `npm ci` builds the RandomX addon against librandomx-dev.
  await ensureSystemPackages(['litecoind', 'monero', 'librandomx-dev', 'chromium', 'nats-server']);
  ensureNodeModules();
  await ensurePostgres();
  // Kaspa's real node (go install of kaspad v0.12.22); without Go the Kaspa node tests fail with the same message.
  const kaspad = await ensureKaspad({ quiet: false });
  log(kaspad.ok ? `kaspad ${kaspad.built ? 'built' : 'ready'} in ${kaspad.binDir}` : kaspad.reason);
  // The Stratum V2 reference translator (cargo install of translator_sv2); without cargo the
  // translator interop test fails with the same message, and the rest runs.
  const translator = await ensureTranslator({ quiet: false });
  log(
    translator.ok
      ? `translator_sv2 ${translator.built ? 'built' : 'ready'}: ${translator.binary}`
      : translator.reason,
  );
  ensureWebBuild();
  if (args.length === 0) {
    log('typecheck');
    run('npm', ['run', '--silent', 'typecheck']);
    log('lint');
    run('npm', ['run', '--silent', 'lint']);
  }
  rmSync(report, { force: true });
  log('vitest');
  run(process.execPath, [
    join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...args,
  ]);
} catch (error) {
  log(error.message);
  exitCode = 1;
}
try {
  const result = JSON.parse(readFileSync(report, 'utf8'));
  // One plain closing line that CI can read.
  console.log(`tests: ${result.numPassedTests} passed, ${result.numFailedTests} failed`);
} catch {
  // No report: the run stopped before Vitest.
}
process.exit(exitCode);
