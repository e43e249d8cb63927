// `npx tsx bench/edge-sv2-pool.ts [--n=100] [--shares=20]`: the pool's Stratum V2 port vs its V1 port, in figures.
import { runEdgeSv2Pool } from './lib/edge-sv2-pool.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().slice(0, 10);
await runEdgeSv2Pool(new Report(`bench/results/edge-sv2-pool-${date}.txt`), process.argv.slice(2));
