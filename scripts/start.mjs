// `npm start`: everything the pool needs on a fresh machine, then the pool itself
// (web app + API on :8080, Stratum SHA-256d on :3333 and Scrypt on :4444, regtest dev chains).
import {
  ROOT,
  ensureNodeModules,
  ensureSystemPackages,
  ensureWebBuild,
  log,
  runForwardingSignals,
  TSX_IMPORT,
  watchParent,
} from './lib.mjs';

// Set-up steps stop with us when npm is stopped (see watchParent); the pool then gets SIGTERM.
const unwatch = watchParent(() => process.exit(143));
try {
  // Before npm: `npm ci` builds the RandomX addon against librandomx-dev.
  await ensureSystemPackages(['litecoind', 'monero', 'librandomx-dev']);
  ensureNodeModules();
  ensureWebBuild();
} catch (error) {
  log(error.message);
  process.exit(1);
}
unwatch();
// The pool runs in one Node process (tsx as a loader, not its CLI wrapper, which is one more process).
const code = await runForwardingSignals(
  process.execPath,
  [...TSX_IMPORT, 'apps/server/src/cli.ts', 'start', ...process.argv.slice(2)],
  { cwd: ROOT },
);
process.exit(code);
