#!/usr/bin/env node
// Installs the Go Kaspa node for the KAS dev chain: kaspad, kaspawallet and kaspaminer of
// github.com/kaspanet/kaspad at KASPAD_VERSION, built from the Go module proxy into the
// project-local GOBIN .tools/go/bin (gitignored), when they are missing or of another version.
// Plain Node, no dependencies, never throws: on a machine without Go it resolves with
// { ok: false, reason: 'KAS chain off: Go toolchain not found ...' } and the other coins run on.
//
//   node scripts/kaspad.mjs          (prints what it did; exit 1 when the KAS chain is off)
//   const result = await ensureKaspad();   (scripts/start.mjs, scripts/test.mjs, tests)
//
// Why not `go install github.com/kaspanet/kaspad@v0.12.22`: that form asks the proxy for the
// module's version list (to print a deprecation notice), and the proxy refuses the list of this
// module (403), which fails the install. Building inside a small module of our own that requires
// the exact version asks for that version only; kaspad's go.mod has no replace directives, so
// the result is the same build. Go 1.26 builds v0.12.22 as it is (its go.mod says go 1.23).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, executable, findExecutable, log, runTool } from './lib.mjs';

export const KASPAD_MODULE = 'github.com/kaspanet/kaspad';
export const KASPAD_VERSION = 'v0.12.22';
export const KASPA_TOOLS = ['kaspad', 'kaspawallet', 'kaspaminer'];
/** Where the binaries go (GOBIN); MANJAM_KASPA_BIN_DIR points at binaries installed elsewhere. */
export const KASPA_BIN_DIR = join(ROOT, '.tools', 'go', 'bin');
const BUILD_DIR = join(ROOT, '.tools', 'go', 'kaspad-build');
const STAMP = join(KASPA_BIN_DIR, 'kaspad.version');
const PACKAGES = [KASPAD_MODULE, `${KASPAD_MODULE}/cmd/kaspawallet`, `${KASPAD_MODULE}/cmd/kaspaminer`];
/** Where Go's own installer puts it, for shells whose PATH lacks it. */
const GO_FALLBACK = '/usr/local/go/bin/go';

function binariesIn(dir) {
  return Object.fromEntries(KASPA_TOOLS.map((tool) => [tool, join(dir, tool)]));
}

/**
 * The go binary: MANJAM_GO when set (an operator's choice; not executable means no Go), else
 * `go` on PATH, else Go's default install place; undefined when there is none.
 */
export function findGo() {
  return findExecutable('go', { envVar: 'MANJAM_GO', fallback: GO_FALLBACK });
}

function installed() {
  if (!KASPA_TOOLS.every((tool) => executable(join(KASPA_BIN_DIR, tool)))) return false;
  try {
    return readFileSync(STAMP, 'utf8').trim() === KASPAD_VERSION;
  } catch {
    return false;
  }
}

function go(goBinary, args, env) {
  return runTool(goBinary, args, { cwd: BUILD_DIR, env });
}

function build(goBinary) {
  mkdirSync(BUILD_DIR, { recursive: true });
  mkdirSync(KASPA_BIN_DIR, { recursive: true });
  writeFileSync(
    join(BUILD_DIR, 'go.mod'),
    `module manjam.local/kaspad-build\n\ngo 1.23\n\nrequire ${KASPAD_MODULE} ${KASPAD_VERSION}\n`,
  );
  const env = {
    ...process.env,
    GOBIN: KASPA_BIN_DIR,
    GOFLAGS: `${process.env.GOFLAGS ?? ''} -mod=mod`.trim(),
    // The machine's own Go: never fetch another toolchain for a go line.
    GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local',
  };
  const steps = [
    ['get', ...PACKAGES.map((pkg) => `${pkg}@${KASPAD_VERSION}`)],
    ['install', ...PACKAGES],
  ];
  for (const args of steps) {
    const failure = go(goBinary, args, env);
    if (failure) return failure;
  }
  writeFileSync(STAMP, `${KASPAD_VERSION}\n`);
  return undefined;
}

/**
 * Makes sure kaspad, kaspawallet and kaspaminer are there. Resolves with
 * { ok: true, binDir, binaries, built, ms } or { ok: false, reason } (the KAS chain stays off).
 */
export async function ensureKaspad({ quiet = false } = {}) {
  const say = quiet ? () => undefined : log;
  const override = process.env.MANJAM_KASPA_BIN_DIR;
  if (override) {
    const missing = KASPA_TOOLS.filter((tool) => !executable(join(override, tool)));
    if (missing.length > 0) {
      return {
        ok: false,
        reason: `KAS chain off: MANJAM_KASPA_BIN_DIR=${override} lacks ${missing.join(', ')}`,
      };
    }
    return { ok: true, binDir: override, binaries: binariesIn(override), built: false, ms: 0 };
  }
  if (installed())
    return { ok: true, binDir: KASPA_BIN_DIR, binaries: binariesIn(KASPA_BIN_DIR), built: false, ms: 0 };
  const goBinary = findGo();
  if (!goBinary) {
    return {
      ok: false,
      reason:
        'KAS chain off: Go toolchain not found (install Go 1.23 or newer, then run node scripts/kaspad.mjs)',
    };
  }
  say(`building kaspad ${KASPAD_VERSION} (kaspad, kaspawallet, kaspaminer) into ${KASPA_BIN_DIR}`);
  const started = Date.now();
  const failure = build(goBinary);
  const ms = Date.now() - started;
  if (failure) return { ok: false, reason: `KAS chain off: building kaspad failed: ${failure}` };
  say(`kaspad ${KASPAD_VERSION} built in ${(ms / 1000).toFixed(1)} s`);
  return { ok: true, binDir: KASPA_BIN_DIR, binaries: binariesIn(KASPA_BIN_DIR), built: true, ms };
}

const invokedDirectly = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (invokedDirectly) {
  const result = await ensureKaspad();
  if (result.ok)
    log(`kaspad ${KASPAD_VERSION} ready in ${result.binDir}${result.built ? '' : ' (already installed)'}`);
  else log(result.reason);
  process.exit(result.ok ? 0 : 1);
}
