// `npx tsx bench/edge-seed.ts [--replies=2000]`: the seed-and-claims faults of issue 27 in figures (see lib/edge-seed.ts).
import { runEdgeSeed } from './lib/edge-seed.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().replace(/[:.]/g, '-');
await runEdgeSeed(new Report(`bench/results/edge-seed-${date}.txt`), process.argv.slice(2));
