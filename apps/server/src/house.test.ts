// The house, enforced: no module imports itself back, not even through `import type`.
// Lint's import-x/no-cycle fails a runtime cycle but does not follow type-only imports; a circle
// of types still ties the files of it together (stratum's context, session, submit, handlers,
// found-block and sha256d-queue were one). This test reads the relative imports of every
// TypeScript file of the repository's code and fails on any strongly connected group of files.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COINS, FAMILIES, LISTED_COINS } from '@manjam/protocol';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CODE = ['apps/server/src', 'apps/web/src', 'packages', 'bench', 'e2e'];
const SKIP = new Set(['node_modules', 'dist', 'results', 'screenshots']);
/** `import … from './x.js'`, `export … from '../y.js'`, `import './z.js'` (type-only ones too). */
const RELATIVE_IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string, out: string[] = [], ending = /\.tsx?$/): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out, ending);
    else if (ending.test(entry.name) && !/\.d\.m?ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Product code: not a test, not test support. */
function isProduct(file: string): boolean {
  const path = relative(ROOT, file);
  return !/\.test\.tsx?$/.test(path) && !/(^|\/)test\//.test(path);
}

/**
 * The folder of a file for the folder-loop check: its top folder under `src`, or its area for
 * the web's features/ and pages/ (each area is a folder of its own); undefined at the root of src.
 */
function folderOf(src: string, file: string): string | undefined {
  const parts = relative(src, file).split('/').slice(0, -1);
  if (parts.length === 0) return undefined;
  return ['features', 'pages'].includes(parts[0] ?? '') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Groups of folders that import each other, directly (`a <-> b`) or around a circle of several
 * (`a -> b -> c -> a`), each group's folders sorted; with the imports that tie them, for a report.
 */
function folderLoops(src: string): string[] {
  const files = sourceFiles(src).filter(isProduct);
  const graph = new Map<string, string[]>();
  for (const [file, targets] of importGraph(files)) {
    const from = folderOf(src, file);
    if (from === undefined) continue;
    const out = new Set(graph.get(from) ?? []);
    for (const target of targets) {
      const to = folderOf(src, target);
      if (to !== undefined && to !== from) out.add(to);
    }
    graph.set(from, [...out]);
  }
  return cycles(graph)
    .map((group) => group.sort().join(' <-> '))
    .sort();
}

const TICKERS = [...COINS, ...LISTED_COINS, 'RVN'].join('|');
/** A coin ticker or a family name as a string, or a ticker as an object key (`KAS: …`). */
const COIN_LITERAL = new RegExp(
  `['"\`](?:${TICKERS}|${FAMILIES.join('|')})['"\`]|\\b(?:${TICKERS})\\s*:(?!:)`,
  'g',
);

/** Coin and family literals in the code of a file (comments dropped). */
function coinLiterals(file: string): number {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return code.match(COIN_LITERAL)?.length ?? 0;
}

function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const [, spec = ''] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const base = resolve(dirname(file), spec);
      const stem = base.replace(/\.(m?js|jsx)$/, '');
      const found = [`${stem}.ts`, `${stem}.tsx`, base, join(base, 'index.ts')].find((c) => known.has(c));
      if (found) targets.push(found);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one file (or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the house', () => {
  it('has no import circle in the code, type-only imports included', () => {
    const files = CODE.flatMap((dir) => sourceFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(500);
    const found = cycles(importGraph(files)).map((group) => group.map((f) => relative(ROOT, f)).sort());
    expect(found).toEqual([]);
  });

  it('keeps every coin family behind the seam and test support out of the product', () => {
    // The registry lists the families; the CLI's
    // `manjam devchain` starts the Bitcoin family's dev chains by name. Tests may reach into a
    // family (they test it) and into apps/server/test/support; product code may do neither (the
    // production build never carries a test double).
    const allowed = new Set(['apps/server/src/coins/registry.ts', 'apps/server/src/commands.ts']);
    const server = join(ROOT, 'apps/server/src');
    const family = /^apps\/server\/src\/coins\/[^/]+\//;
    const support = /^apps\/server\/test\//;
    const graph = importGraph([...sourceFiles(server), ...sourceFiles(join(ROOT, 'apps/server/test'))]);
    const reaching: string[] = [];
    for (const [file, targets] of graph) {
      const from = relative(ROOT, file);
      if (support.test(from) || from.endsWith('.test.ts')) continue;
      for (const target of targets.map((t) => relative(ROOT, t))) {
        const intoFamily = family.test(target) && !family.test(from) && !allowed.has(from);
        if (intoFamily || support.test(target)) reaching.push(`${from} -> ${target}`);
      }
    }
    expect(reaching).toEqual([]);
  });

  it('has no folder loop in the server or the web app', () => {
    // A folder importing one that imports it back ties both together as a file cycle does.
    const found = ['apps/server/src', 'apps/web/src'].flatMap((src) =>
      folderLoops(join(ROOT, src)).map((loop) => `${src}: ${loop}`),
    );
    expect(found).toEqual([]);
  });

  it('keeps test scaffolding out of the product folders', () => {
    // Fakes, fixtures, vectors and render helpers live in each package's test/ folder beside src/
    // (apps/server/test/support, apps/web/test, packages/protocol/test): in src/ only the tests
    // themselves may import Vitest or sit in a test, testing, fixture or vector file or folder.
    const roots = ['apps/server/src', 'apps/web/src', 'packages/protocol/src', 'packages/contract/src'];
    const found = roots
      .flatMap((root) => sourceFiles(join(ROOT, root), [], /\.(m?[jt]sx?|json|csv)$/))
      .map((file) => relative(ROOT, file))
      .filter((path) => !/\.test\.tsx?$/.test(path))
      .filter(
        (path) =>
          /(^|\/)(test|testing|vectors|fixtures?)(\/|$)|(fixtures?|vectors|fake[A-Z]\w*|test-utils)\.[a-z]+$/.test(
            path,
          ) || /from 'vitest'/.test(readFileSync(join(ROOT, path), 'utf8')),
      );
    expect(found).toEqual([]);
  });

  it('names no coin or family outside the places "Adding a coin family" lists', () => {
    // The checklist's places (docs/ARCHITECTURE.md): each family's folders, the coin table and
    // the contract's rows, the server's and the web's catalogs, and the shared files it names.
    const places = [
      /^apps\/server\/src\/coins\//,
      /^apps\/server\/src\/config\/families\//,
      /^apps\/server\/src\/i18n\//,
      /^apps\/web\/src\/coins\//,
      /^apps\/web\/src\/i18n\//,
      /^packages\/contract\/src\/tables\.ts$/,
      /^scripts\/(families\/[^/]+|kaspad|sri)\.mjs$/,
    ];
    // Literals still outside them, per file: to move into the family's folders (the count only
    // goes down; a file that loses its last one leaves this list).
    const known: Record<string, number> = {
      'scripts/regions-demo.mjs': 1,
    };
    const files = [
      ...sourceFiles(join(ROOT, 'apps/server/src')),
      ...sourceFiles(join(ROOT, 'apps/web/src')),
      ...sourceFiles(join(ROOT, 'packages/contract/src')),
      ...sourceFiles(join(ROOT, 'scripts'), [], /\.m?[jt]s$/),
    ].filter(isProduct);
    const found: Record<string, number> = {};
    for (const file of files) {
      const path = relative(ROOT, file);
      if (places.some((place) => place.test(path))) continue;
      const count = coinLiterals(file);
      if (count > 0) found[path] = count;
    }
    expect(found).toEqual(known);
  });

  it('counts coin literals where they are (the check is not blind)', () => {
    expect(coinLiterals(join(ROOT, 'packages/contract/src/tables.ts'))).toBeGreaterThanOrEqual(4);
  });

  it('finds a circle when one exists (the check is not blind)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph).map((group) => group.sort())).toEqual([['a', 'b', 'c']]);
  });
});
