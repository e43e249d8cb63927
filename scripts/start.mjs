// `npm start`: everything the pool needs on a fresh machine, then the pool itself
// (web app + API on :8080, Stratum SHA-256d on :3333, Scrypt on :4444, RandomX on :1111 and
// kHeavyHash on :7777, regtest dev chains).
import {
  POOL_PROCESS_ENV,
  ROOT,
  checkConfig,
  ensureNodeModules,
  ensureSystemPackages,
  ensureWebBuild,
  log,
  runForwardingSignals,
  watchParent,
} from './lib.mjs';
import { CHAIN_PACKAGES } from './install-system-deps.mjs';
import { ensureKaspad } from './kaspad.mjs';

// Set-up steps stop with us when npm is stopped (see watchParent); the pool then gets SIGTERM.
const unwatch = watchParent(() => process.exit(143));
let serverEntry;
try {
  // Before npm: `npm ci` builds the RandomX addon against librandomx-dev.
  await ensureSystemPackages(CHAIN_PACKAGES);
  ensureNodeModules();
  // The configuration is read before anything is built or started: a mistake costs seconds.
  checkConfig(process.argv.slice(2));
  // Kaspa's real node (go install of kaspad v0.12.22); without Go, KAS is off and the rest runs.
  const kaspad = await ensureKaspad({ quiet: false });
  log(kaspad.ok ? `kaspad ${kaspad.built ? 'built' : 'ready'} in ${kaspad.binDir}` : kaspad.reason);
  ensureWebBuild();
  // After npm ci: the build uses esbuild from node_modules.
  const { ensureServerBuild } = await import('./build-server.mjs');
  serverEntry = await ensureServerBuild(log);
} catch (error) {
  log(error.message);
  process.exit(error.exitCode ?? 1);
}
unwatch();
// The pool runs in one Node process, compiled JavaScript under plain node (no TypeScript loader).
// Its environment is scripts/pool-env.json (the benchmarks' pool processes get the same): glibc's
// mmap threshold is fixed at 128 KiB (by default it grows after each large free): the large blocks
// V8's WebAssembly compiler takes for PGlite are then mapped on their own and go back to the
// system when freed, instead of staying in the allocator's arenas (idle RSS 228-256 -> 177-190 MB).
const code = await runForwardingSignals(process.execPath, [serverEntry, 'start', ...process.argv.slice(2)], {
  cwd: ROOT,
  env: { ...POOL_PROCESS_ENV, ...process.env },
});
process.exit(code);
