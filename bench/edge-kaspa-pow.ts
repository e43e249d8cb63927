// `npx tsx bench/edge-kaspa-pow.ts [--shares=200] [--seconds=2]`: the Kaspa protocol layer's
// refusals in figures. The phase itself is bench/lib/edge-kaspa-pow.ts.
import { runEdgeKaspaPow } from './lib/edge-kaspa-pow.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().replace(/[:.]/g, '-');
await runEdgeKaspaPow(new Report(`bench/results/edge-kaspa-pow-${date}.txt`), process.argv.slice(2));
