// `npx tsx bench/edge-family.ts`: the family phase of the edge drills on its own (bench/lib/edge-family.ts).
import { runEdgeFamily } from './lib/edge-family.js';
import { Report } from './lib/report.js';

const report = new Report(`bench/results/edge-family-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`);
await runEdgeFamily(report, process.argv.slice(2));
