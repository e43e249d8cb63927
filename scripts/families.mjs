// The coin families as the scripts see them: one module per family in scripts/families/, found by
// reading that folder (a new family is a new file there, no list to edit). Plain Node, no
// dependencies: it runs before `npm ci`. Each module's default export is a ScriptFamily:
//
//   packages      the Debian packages its dev chain needs ({ chain, build }: `build` ones are
//                 needed before `npm ci`, which compiles against them; npm start and npm test
//                 install both), with `binaries`: the file that proves a package is installed
//   tools         what it builds for its dev chain (npm start and npm test): { name, ensure() },
//                 ensure() resolving with the line to print (ready, built, or why its chain is off)
//   testTools     the same for what only its tests need (npm test)
//   server        the files the server bundle copies beside itself (`assets`, relative to
//                 apps/server/src) and the extra entry points it compiles (`entries`)
//   tier          its test tier: the Vitest path filters of `npm test -- <family>` and its line
//                 in `npm test -- --help`
//
// Families come in file-name order.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const FOLDER = fileURLToPath(new URL('./families/', import.meta.url));

async function load() {
  const names = readdirSync(FOLDER)
    .filter((file) => file.endsWith('.mjs'))
    .sort();
  return Promise.all(
    names.map(async (file) => {
      const family = (await import(pathToFileURL(join(FOLDER, file)).href)).default;
      return {
        name: file.slice(0, -'.mjs'.length),
        packages: { chain: [], build: [], ...family.packages },
        binaries: family.binaries ?? {},
        tools: family.tools ?? [],
        testTools: family.testTools ?? [],
        server: { assets: [], entries: [], ...family.server },
        tier: family.tier,
      };
    }),
  );
}

/** Every family of scripts/families/, in file-name order. */
export const FAMILIES = await load();
