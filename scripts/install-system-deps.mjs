#!/usr/bin/env node
// Installs the Debian packages Manjam needs outside npm (the coin families' dev-chain packages
// and the ones `npm ci` builds against, each family's in scripts/families/; chromium for the
// browser tests, nats-server for the JetStream cluster tests) when their binaries are missing.
// Plain Node, no dependencies: it runs before `npm ci`.
//
//   node scripts/install-system-deps.mjs litecoind chromium
//
// As root: `apt-get update` once, then `apt-get install -y --no-install-recommends <missing>`
// (DEBIAN_FRONTEND=noninteractive), output streamed. Not root: prints the exact command to run
// and exits 1. Library use: `await ensure(['litecoind'])` throws an Error saying the same.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FAMILIES } from './families.mjs';

/** The file that proves a package is installed (the real binary, not a wrapper). */
export const PACKAGE_BINARIES = {
  chromium: '/usr/bin/chromium',
  'nats-server': '/usr/sbin/nats-server',
  ...Object.assign({}, ...FAMILIES.map((family) => family.binaries)),
};

/**
 * The packages the coins' dev chains need, and the ones `npm ci` needs before it runs (it builds
 * native addons against them): each family's `packages` (scripts/families/).
 */
export const BUILD_PACKAGES = FAMILIES.flatMap((family) => family.packages.build);
export const CHAIN_PACKAGES = [...FAMILIES.flatMap((family) => family.packages.chain), ...BUILD_PACKAGES];

const PACKAGE_NAME = /^[a-z0-9][a-z0-9+.-]+$/;

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function dpkgInstalled(pkg) {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.includes('install ok installed');
}

/** True when the package's binary (or, for packages without a known binary, the package) is there. */
export function isInstalled(pkg) {
  const binary = PACKAGE_BINARIES[pkg];
  return binary ? executable(binary) : dpkgInstalled(pkg);
}

/** The packages among `packages` that still need installing. */
export function missingPackages(packages) {
  for (const pkg of packages) {
    if (!PACKAGE_NAME.test(pkg)) throw new Error(`not a Debian package name: "${pkg}"`);
  }
  return [...new Set(packages)].filter((pkg) => !isInstalled(pkg));
}

export function installCommand(missing) {
  return (
    'sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive ' +
    `apt-get install -y --no-install-recommends ${missing.join(' ')}`
  );
}

function apt(args) {
  process.stdout.write(`[manjam] apt-get ${args.join(' ')}\n`);
  const result = spawnSync('apt-get', args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) throw new Error(`apt-get could not run: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`apt-get ${args.join(' ')} failed with exit code ${result.status ?? result.signal}`);
}

/**
 * Makes sure every package in `packages` is installed. Resolves with the list it installed
 * (empty when nothing was missing); throws with the command to run when it cannot install.
 */
export async function ensure(packages) {
  const missing = missingPackages(packages);
  if (missing.length === 0) return [];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(
      `missing system packages: ${missing.join(', ')}. Run as root:\n  ${installCommand(missing)}`,
    );
  }
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', ...missing]);
  const still = missing.filter((pkg) => !isInstalled(pkg));
  if (still.length > 0) {
    throw new Error(
      `apt-get finished but these are still missing: ${still.map((p) => PACKAGE_BINARIES[p] ?? p).join(', ')}`,
    );
  }
  return missing;
}

const invokedDirectly = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (invokedDirectly) {
  const packages = process.argv.slice(2);
  if (packages.length === 0) {
    process.stderr.write('usage: node scripts/install-system-deps.mjs <debian-package>...\n');
    process.exit(2);
  }
  try {
    const installed = await ensure(packages);
    process.stdout.write(
      installed.length > 0
        ? `[manjam] installed ${installed.join(', ')}\n`
        : `[manjam] already installed: ${packages.join(', ')}\n`,
    );
  } catch (error) {
    process.stderr.write(`[manjam] ${error.message}\n`);
    process.exit(1);
  }
}
