// Shared steps of the two README commands. Plain Node, no dependencies: runs before `npm ci`.
import { spawnSync, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The pool process's environment (scripts/pool-env.json; the systemd unit in docs/OPERATIONS.md sets the same). */
export const POOL_PROCESS_ENV = JSON.parse(readFileSync(join(ROOT, 'scripts', 'pool-env.json'), 'utf8'));

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

/** `run` without blocking the caller: resolves once the command exits 0, rejects with run's message otherwise. */
export function runAsync(command, args, options = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolvePromise()
        : reject(new Error(`${command} ${args.join(' ')} failed with exit code ${code ?? signal}`)),
    );
  });
}

export function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A toolchain binary: `process.env[envVar]` when set (an operator's choice; not executable means
 * none), else `name` on PATH, else `fallback` (where its own installer puts it); undefined when none.
 */
export function findExecutable(name, { envVar, fallback }) {
  const chosen = process.env[envVar];
  if (chosen) return executable(chosen) ? chosen : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return executable(fallback) ? fallback : undefined;
}

/** Runs a build tool quietly; undefined when it succeeded, else what failed with its last lines. */
export function runTool(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: 'pipe', ...options });
  const name = `${command.split('/').pop()} ${args.join(' ')}`;
  if (result.error) return `${name}: ${result.error.message}`;
  if (result.status !== 0) {
    const tail = `${result.stderr}${result.stdout}`.trim().split('\n').slice(-6).join('\n');
    return `${name} exited with ${result.status ?? result.signal}:\n${tail}`;
  }
  return undefined;
}

/** `npm ci` when node_modules is missing or older than package-lock.json. */
export function ensureNodeModules() {
  const marker = join(ROOT, 'node_modules', '.package-lock.json');
  const lock = join(ROOT, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  log('installing npm packages (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/**
 * Reads the pool's configuration as `manjam start` would (file, MANJAM_CONFIG_JSON, variables; the
 * same `--config` argument) and throws with the process's own one-line reason when it is invalid.
 */
export function checkConfig(args) {
  const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const cli = join(ROOT, 'apps', 'server', 'src', 'cli.ts');
  const result = spawnSync(process.execPath, [tsx, cli, 'check-config', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  if (result.status === 0) return;
  const error = new Error(result.stderr.trim() || `manjam check-config exited with ${result.status}`);
  error.exitCode = result.status ?? 1;
  throw error;
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

const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** A child's exit as a process exit code: its own code, or 128 + the signal number that ended it. */
export function exitCodeOf(code, signal) {
  if (code !== null) return code;
  return 128 + (SIGNAL_NUMBERS[signal] ?? 0);
}

/**
 * Stops this process when its parent dies. `npm start` runs us under `sh -c`: npm forwards
 * SIGTERM to that shell, which dies without passing it on, so we would run on as an orphan.
 * `onOrphaned` is called once; returns a function that stops watching.
 */
export function watchParent(onOrphaned, intervalMs = 500) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Runs a child with inherited stdio and forwards SIGINT/SIGTERM to it (and SIGTERM when our own
 * parent dies); resolves with its exit code (128 + signal number when a signal ended it).
 */
export function runForwardingSignals(command, args, options = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    const unwatch = watchParent(() => {
      log('the parent process is gone (npm was stopped): stopping the pool');
      forward('SIGTERM');
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      unwatch();
      resolvePromise(exitCodeOf(code, signal));
    });
  });
}
