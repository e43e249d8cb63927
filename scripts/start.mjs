// `npm start`: everything the pool needs on a fresh machine, then the pool itself
// (web app + API on :8080, Stratum SHA-256d on :3333 and Scrypt on :4444, regtest dev chains).
import { ROOT, ensureNodeModules, ensureSystemPackages, ensureWebBuild, log, runForwardingSignals, TSX } from './lib.mjs';

try {
  await ensureSystemPackages(['litecoind']);
  ensureNodeModules();
  ensureWebBuild();
} catch (error) {
  log(error.message);
  process.exit(1);
}
const code = await runForwardingSignals(process.execPath, [TSX, 'apps/server/src/cli.ts', 'start', ...process.argv.slice(2)], { cwd: ROOT });
process.exit(code);
