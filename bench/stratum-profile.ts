// Where the pool's CPU goes during the timed phases, from a V8 CPU profile written by
// `bench:stratum --profile` (the pool's main thread is the largest CPU.*.cpuprofile):
//   npx tsx bench/stratum-profile.ts bench/results/CPU.<...>.cpuprofile [top=25]
// Only samples between the first and the last one inside buildShare (PHASE_MARK) count (so start-up
// and connecting are left out). Prints self time and inclusive time per function.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const PHASE_MARK = process.env.PHASE_MARK ?? 'buildShare';

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^file:\/\//, '').replace(/^.*\/work\/main\//, '');
  return `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
}

function stacks(profile: Profile): { key: string[]; dt: number; at: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let at = 0;
  return profile.samples.map((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    const key: string[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur);
      if (node) key.push(label(node));
    }
    return { key, dt, at };
  });
}

function print(title: string, totals: Map<string, number>, total: number, top: number): void {
  process.stdout.write(`${title}\n`);
  for (const [key, us] of [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(
      `${((us / total) * 100).toFixed(1).padStart(6)} %  ${(us / 1e6).toFixed(2).padStart(7)} s  ${key}\n`,
    );
  }
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: stratum-profile.ts <file.cpuprofile> [top]\n');
  process.exit(2);
}
const all = stacks(JSON.parse(readFileSync(file, 'utf8')) as Profile);
const marked = all.filter((s) => s.key.some((k) => k.startsWith(`${PHASE_MARK} `)));
const from = marked[0]?.at ?? 0;
const to = marked[marked.length - 1]?.at ?? Number.POSITIVE_INFINITY;
const window = all.filter((s) => s.at >= from && s.at <= to);
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
let busy = 0;
for (const s of window) {
  total += s.dt;
  const leaf = s.key[0] ?? '?';
  if (!leaf.startsWith('(idle)')) busy += s.dt;
  self.set(leaf, (self.get(leaf) ?? 0) + s.dt);
  for (const k of new Set(s.key)) inclusive.set(k, (inclusive.get(k) ?? 0) + s.dt);
}
const top = Number(topArg ?? 25);
process.stdout.write(
  `window ${((to - from) / 1e6).toFixed(1)} s of samples (${PHASE_MARK} first to last), busy ${(busy / 1e6).toFixed(1)} s\n`,
);
print('-- self time', self, total, top);
print('-- inclusive time', inclusive, total, top);
