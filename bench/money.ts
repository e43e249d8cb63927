// `npm run drill:money` (issue 27): money figures that agree and say their age, in figures
// (bench/lib/edge-money.ts): a failed payout on a real chain, and credits that fall behind.
import { runEdgeMoney } from './lib/edge-money.js';
import { Report } from './lib/report.js';

const report = new Report(`bench/results/money-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`);
await runEdgeMoney(report, process.argv.slice(2));
