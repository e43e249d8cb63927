// `npm run drill:addresses` (issue 26): payout addresses checked by their coin's family, in figures
// (bench/lib/edge-family.ts): fake and real addresses registered through the API, en and ar.
import { runEdgeFamily } from './lib/edge-family.js';
import { Report } from './lib/report.js';

const report = new Report(`bench/results/addresses-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`);
await runEdgeFamily(report, process.argv.slice(2));
