// `npx tsx bench/edge-backlog.ts`: the backlog edge drill (bench/lib/edge-backlog.ts).
import { runEdgeBacklog } from './lib/edge-backlog.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().slice(0, 10);
await runEdgeBacklog(new Report(`bench/results/edge-backlog-${date}.txt`), process.argv.slice(2));
