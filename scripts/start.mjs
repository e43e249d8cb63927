// `npm start`: everything the pool needs on a fresh machine, then the pool itself (web app + API
// on :8080, a Stratum port per algorithm, regtest dev chains): the Debian packages and the tools
// each coin family names in scripts/families/.
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
import { FAMILIES } from './families.mjs';
import { CHAIN_PACKAGES } from './install-system-deps.mjs';

// Set-up steps stop with us when npm is stopped (see watchParent); the pool then gets SIGTERM.
const unwatch = watchParent(() => process.exit(143));
let serverEntry;
try {
  // Before npm: `npm ci` builds the RandomX addon against librandomx-dev.
  await ensureSystemPackages(CHAIN_PACKAGES);
  ensureNodeModules();
  // The configuration is read before anything is built or started: a mistake costs seconds.
  checkConfig(process.argv.slice(2));
  // What each family builds for its dev chain; a tool that cannot be built says so and leaves
  // that family's chain off, and the rest runs.
  for (const tool of FAMILIES.flatMap((family) => family.tools)) log(await tool.ensure());
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
