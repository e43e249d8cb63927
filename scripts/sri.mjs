#!/usr/bin/env node
// Installs the Stratum V2 reference translator (SRI's translator_sv2, the SV1 -> SV2 proxy that
// Stratum V1 farms put in front of a V2 pool) for the V2 interop tests: `cargo install` of
// SRI_TRANSLATOR_VERSION from crates.io, without its default `monitoring` feature (ASIC telemetry
// the tests do not use), into the project-local root .tools/cargo (gitignored). Compiled crates
// are kept in the user's cache (~/.cache/manjam/sri-target), so a fresh clone on a machine that
// built it once installs in seconds; the first build takes about 6 minutes on 2 cores.
// Plain Node, no dependencies, never throws: on a machine without cargo it resolves with
// { ok: false, reason: 'SV2 translator off: cargo not found ...' }.
//
//   node scripts/sri.mjs             (prints what it did; exit 1 when it is not there)
//   const result = await ensureTranslator();   (scripts/test.mjs, tests)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, executable, findExecutable, log, runTool } from './lib.mjs';

export const SRI_TRANSLATOR_CRATE = 'translator_sv2';
export const SRI_TRANSLATOR_VERSION = '0.6.0';
const CARGO_ROOT = join(ROOT, '.tools', 'cargo');
export const SRI_TRANSLATOR_BINARY = join(CARGO_ROOT, 'bin', SRI_TRANSLATOR_CRATE);
const STAMP = join(CARGO_ROOT, 'translator.version');
const TARGET_DIR = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'manjam', 'sri-target');
/** Where rustup puts cargo, for shells whose PATH lacks it. */
const CARGO_FALLBACK = join(homedir(), '.cargo', 'bin', 'cargo');

/** cargo: MANJAM_CARGO when set, else `cargo` on PATH, else rustup's place; undefined when none. */
export function findCargo() {
  return findExecutable('cargo', { envVar: 'MANJAM_CARGO', fallback: CARGO_FALLBACK });
}

function installed() {
  if (!executable(SRI_TRANSLATOR_BINARY)) return false;
  try {
    return readFileSync(STAMP, 'utf8').trim() === SRI_TRANSLATOR_VERSION;
  } catch {
    return false;
  }
}

function build(cargo) {
  mkdirSync(CARGO_ROOT, { recursive: true });
  mkdirSync(TARGET_DIR, { recursive: true });
  const args = [
    'install',
    SRI_TRANSLATOR_CRATE,
    '--version',
    SRI_TRANSLATOR_VERSION,
    '--locked',
    '--no-default-features',
    '--root',
    CARGO_ROOT,
  ];
  const env = { ...process.env, CARGO_TARGET_DIR: TARGET_DIR };
  const failure = runTool(cargo, args, { env });
  if (failure) return failure;
  writeFileSync(STAMP, `${SRI_TRANSLATOR_VERSION}\n`);
  return undefined;
}

/**
 * Makes sure translator_sv2 is there. Resolves with { ok: true, binary, built, ms } or
 * { ok: false, reason }. MANJAM_SRI_TRANSLATOR points at a binary installed elsewhere.
 */
export async function ensureTranslator({ quiet = false } = {}) {
  const say = quiet ? () => undefined : log;
  const override = process.env.MANJAM_SRI_TRANSLATOR;
  if (override) {
    return executable(override)
      ? { ok: true, binary: override, built: false, ms: 0 }
      : { ok: false, reason: `SV2 translator off: MANJAM_SRI_TRANSLATOR=${override} is not executable` };
  }
  if (installed()) return { ok: true, binary: SRI_TRANSLATOR_BINARY, built: false, ms: 0 };
  const cargo = findCargo();
  if (!cargo) {
    return {
      ok: false,
      reason: 'SV2 translator off: cargo not found (install Rust with cargo, then run node scripts/sri.mjs)',
    };
  }
  say(`building ${SRI_TRANSLATOR_CRATE} ${SRI_TRANSLATOR_VERSION} into ${CARGO_ROOT} (first time: minutes)`);
  const started = Date.now();
  const failure = build(cargo);
  const ms = Date.now() - started;
  if (failure) return { ok: false, reason: `SV2 translator off: building it failed: ${failure}` };
  say(`${SRI_TRANSLATOR_CRATE} ${SRI_TRANSLATOR_VERSION} built in ${(ms / 1000).toFixed(1)} s`);
  return { ok: true, binary: SRI_TRANSLATOR_BINARY, built: true, ms };
}

const invokedDirectly = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (invokedDirectly) {
  const result = await ensureTranslator();
  if (result.ok) log(`${SRI_TRANSLATOR_CRATE} ${SRI_TRANSLATOR_VERSION} ready: ${result.binary}`);
  else log(result.reason);
  process.exit(result.ok ? 0 : 1);
}
