// `npx tsx bench/edge-accounts.ts [--samples=40] [--registrations=20] [--hammer-seconds=10] [--spread=30]`:
// sign-in and registration answer alike for known and unknown emails, and a stranger's guesses
// throttle the stranger, not the owner (issue 25, item 5), in figures.
import { fileURLToPath } from 'node:url';
import { runEdgeAccounts } from './lib/edge-accounts.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().slice(0, 10);
const report = new Report(fileURLToPath(new URL(`./results/edge-accounts-${date}.txt`, import.meta.url)));
runEdgeAccounts(report, process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `edge-accounts: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
