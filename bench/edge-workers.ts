// `npx tsx bench/edge-workers.ts [--logins=10000] [--parallel=40] [--rejects=1000] [--quiet-shares=50]`:
// stranger logins under an account write no worker row (issue 25, item 3), in figures.
import { fileURLToPath } from 'node:url';
import { runEdgeWorkers } from './lib/edge-workers.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().slice(0, 10);
const report = new Report(fileURLToPath(new URL(`./results/edge-workers-${date}.txt`, import.meta.url)));
runEdgeWorkers(report, process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `edge-workers: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
