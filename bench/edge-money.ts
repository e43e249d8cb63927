// `npx tsx bench/edge-money.ts`: the money phase of the edge drills on its own (bench/lib/edge-money.ts).
import { runEdgeMoney } from './lib/edge-money.js';
import { Report } from './lib/report.js';

const report = new Report(`bench/results/edge-money-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`);
await runEdgeMoney(report, process.argv.slice(2));
