// npx tsx bench/edge-leaf.ts [--cycles=N] [--dead=MS]: the drill phase `leaf` alone (bench/lib/edge-leaf.ts).
import { runEdgeLeaf } from './lib/edge-leaf.js';
import { Report } from './lib/report.js';

const report = new Report(`bench/results/edge-leaf-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`);
await runEdgeLeaf(report, process.argv.slice(2));
