// The house, enforced (issue 26): no module imports itself back, not even through `import type`.
// Lint's import-x/no-cycle fails a runtime cycle but does not follow type-only imports; a circle
// of types still ties the files of it together (stratum's context, session, submit, handlers,
// found-block and sha256d-queue were one). This test reads the relative imports of every
// TypeScript file of the repository's code and fails on any strongly connected group of files.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CODE = ['apps/server/src', 'apps/web/src', 'packages', 'bench', 'e2e'];
const SKIP = new Set(['node_modules', 'dist', 'results', 'screenshots']);
/** `import … from './x.js'`, `export … from '../y.js'`, `import './z.js'` (type-only ones too). */
const RELATIVE_IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
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
    // The registry lists the families; config-sections gathers their config files; the CLI's
    // `manjam devchain` starts the Bitcoin family's dev chains by name. Tests may reach into a
    // family (they test it) and into apps/server/test/support; product code may do neither (the
    // production build never carries a test double).
    const allowed = new Set([
      'apps/server/src/coins/registry.ts',
      'apps/server/src/coins/config-sections.ts',
      'apps/server/src/commands.ts',
    ]);
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
