// `npx tsx bench/edge-sv2.ts [--seconds=3]`: the SV2 Noise layer's speed and refusals, in figures.
import { runEdgeSv2 } from './lib/edge-sv2.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().slice(0, 10);
await runEdgeSv2(new Report(`bench/results/edge-sv2-${date}.txt`), process.argv.slice(2));
