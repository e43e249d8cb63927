// `npx tsx bench/edge-webhook.ts [--miners=200] [--timeout-ms=1000]`: alert webhooks under faults
// (500s, hangs past the deadline, redirects, a restart mid-retry, SSRF forms), in figures.
import { runEdgeWebhook } from './lib/edge-webhook.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().slice(0, 10);
await runEdgeWebhook(new Report(`bench/results/edge-webhook-${date}.txt`), process.argv.slice(2));
