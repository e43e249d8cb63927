// The server as compiled JavaScript for plain `node`: apps/server/src/cli.ts and the workspace
// packages it imports (@manjam/protocol, @manjam/contract) bundled by esbuild into
// apps/server/dist/src/cli.js; npm packages stay in node_modules (native and wasm ones included).
// Files the server opens by path next to its modules (new URL('./x', import.meta.url)) are
// copied beside the bundle: the PGlite worker thread, the node supervisor, the SQL migrations
// and the files each coin family names (scripts/families/: its worker threads, dev-chain
// runners, protocol files). The bundle sits two levels under apps/server, as the sources do, so
// '../../bin/blocknotify.mjs' still finds apps/server/bin.
//
// `node scripts/build-server.mjs` builds; ensureServerBuild() (npm start, bin/manjam.mjs) builds
// only when a source is newer than the bundle. Every file is written under a temporary name and
// renamed, the bundle last: processes starting at the same moment never read half a file.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FAMILIES } from './families.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = join(ROOT, 'apps', 'server');
const OUT = join(SERVER, 'dist', 'src');
export const SERVER_ENTRY = join(OUT, 'cli.js');

/** Source files opened by path at run time, relative to apps/server/src (the bundle's directory). */
const ASSETS = [
  'db/pglite-worker.mjs',
  'files/node-supervisor.cjs',
  ...FAMILIES.flatMap((family) => family.server.assets),
];
const MIGRATIONS = 'db/migrations';
/**
 * Workspace packages compiled into the bundle: every entry of @manjam/protocol and
 * @manjam/contract (their exports are TypeScript), but the SIMD scrypt module, which is plain
 * JavaScript opening its WebAssembly beside it, and @manjam/randomx's pool (TypeScript), whose
 * worker thread and native addon stay in the package (it finds them through `@manjam/randomx/worker`).
 */
const KEPT_EXTERNAL = new Set(['@manjam/protocol/scrypt-simd']);
const bundled = (path) =>
  /^@manjam\/(protocol|contract|randomx)(\/|$)/.test(path) && !KEPT_EXTERNAL.has(path);

const SOURCES = [
  join(SERVER, 'src'),
  join(SERVER, 'package.json'),
  join(ROOT, 'packages', 'protocol', 'src'),
  join(ROOT, 'packages', 'contract', 'src'),
  join(ROOT, 'packages', 'randomx', 'src'),
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('./families/', import.meta.url)),
];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

let sequence = 0;
function writeAtomically(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${++sequence}.tmp`;
  if (typeof contents === 'string' || contents instanceof Uint8Array) writeFileSync(temporary, contents);
  else copyFileSync(contents.copyOf, temporary);
  renameSync(temporary, path);
}

export function serverBuildIsCurrent() {
  return existsSync(SERVER_ENTRY) && statSync(SERVER_ENTRY).mtimeMs >= Math.max(...SOURCES.map(newestMtime));
}

export async function buildServer() {
  const { build, stop } = await import('esbuild');
  // esbuild answers from a service process of its own; stopped once the build is written, so
  // `npm start` does not keep it beside the pool for the pool's whole life.
  const result = await build({
    // A family's worker thread is an entry of its own: the worker opens it by path beside cli.js.
    entryPoints: [
      join(SERVER, 'src', 'cli.ts'),
      ...FAMILIES.flatMap((family) => family.server.entries).map((entry) => join(SERVER, 'src', entry)),
    ],
    // Code split at dynamic imports: a role loads only the chunks (and npm packages) it uses; the
    // chunks sit beside cli.js, so import.meta.url paths stay the same.
    outdir: OUT,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    write: false,
    logLevel: 'warning',
    plugins: [
      {
        name: 'npm-packages-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            bundled(args.path) ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  }).finally(() => stop());
  for (const asset of ASSETS)
    writeAtomically(join(OUT, asset.split('/').pop()), { copyOf: join(SERVER, 'src', asset) });
  for (const name of readdirSync(join(SERVER, 'src', MIGRATIONS)))
    writeAtomically(join(OUT, 'migrations', name), { copyOf: join(SERVER, 'src', MIGRATIONS, name) });
  // The bundle last: its time stamp says the whole build is done.
  const files = [...result.outputFiles].sort(
    (a, b) => Number(a.path === SERVER_ENTRY) - Number(b.path === SERVER_ENTRY),
  );
  for (const file of files) writeAtomically(file.path, file.contents);
  // Chunks of earlier builds: removed once no process still starting could import them.
  const current = new Set(files.map((file) => file.path));
  for (const name of readdirSync(OUT)) {
    const path = join(OUT, name);
    // Another build running at the same time may have removed it already: a name gone is skipped.
    if (
      /^chunk-.*\.js(\.map)?$/.test(name) &&
      !current.has(path) &&
      (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) < Date.now() - 600_000
    )
      rmSync(path, { force: true });
  }
}

/** Builds the server when its bundle is missing or older than a source; answers the bundle's path. */
export async function ensureServerBuild(log = () => undefined) {
  if (!serverBuildIsCurrent()) {
    log('building the server (apps/server/dist)');
    await buildServer();
  }
  return SERVER_ENTRY;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  await buildServer();
  process.stdout.write(
    `[manjam] server built: ${SERVER_ENTRY} in ${Math.round(performance.now() - started)} ms\n`,
  );
}
