// `npm run drill:help -- [--load=6] [--asks=200] [--warmup=5]`: Test Connection on a busy
// pool (issue 27, item 7), in figures. The phase itself is bench/lib/edge-help.ts.
import { runEdgeHelp } from './lib/edge-help.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().replace(/[:.]/g, '-');
await runEdgeHelp(new Report(`bench/results/edge-help-${date}.txt`), process.argv.slice(2));
