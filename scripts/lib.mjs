// Shared steps of the two README commands. Plain Node, no dependencies: runs before `npm ci`.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function log(message) {
  process.stdout.write(`[manjam] ${message}\n`);
}

/** Runs a command in the repository root, streaming its output; throws when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed with exit code ${result.status ?? result.signal}`);
  }
}

/** `npm ci` when node_modules is missing or older than package-lock.json. */
export function ensureNodeModules() {
  const marker = join(ROOT, 'node_modules', '.package-lock.json');
  const lock = join(ROOT, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  log('installing npm packages (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/** Installs Debian packages the pool or its tests need, when their binaries are missing. */
export async function ensureSystemPackages(packages) {
  const { ensure } = await import('./install-system-deps.mjs');
  await ensure(packages);
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the web app when its bundle is missing or older than its sources. */
export function ensureWebBuild() {
  const web = join(ROOT, 'apps', 'web');
  const built = join(web, 'dist', 'index.html');
  const sources = Math.max(
    newestMtime(join(web, 'src')),
    newestMtime(join(ROOT, 'packages', 'contract', 'src')),
    statSync(join(web, 'index.html')).mtimeMs,
  );
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  log('building the web app');
  run('npm', ['run', 'build', '-w', '@manjam/web']);
}

export function canConnect(port, host = '127.0.0.1', timeoutMs = 2_000) {
  return new Promise((resolvePromise) => {
    const socket = connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolvePromise(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Runs a child with inherited stdio and forwards SIGINT/SIGTERM to it; resolves with its exit code. */
export function runForwardingSignals(command, args, options = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolvePromise(code ?? (signal ? 1 : 0));
    });
  });
}

export const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
