// `npx tsx bench/edge-payaddr.ts [--per-kind=500]`: one payout address per coin in figures (see lib/edge-payaddr.ts).
import { runEdgePayaddr } from './lib/edge-payaddr.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().replace(/[:.]/g, '-');
await runEdgePayaddr(new Report(`bench/results/edge-payaddr-${date}.txt`), process.argv.slice(2));
