// `npx tsx bench/edge-http.ts`: the http edge drill (held HTTP connections against a running
// pool), in figures; asserts nothing. Options: --connections=N --seconds=N --rate=N --addresses=N.
import { fileURLToPath } from 'node:url';
import { runEdgeHttp } from './lib/edge-http.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().slice(0, 10);
const path = fileURLToPath(new URL(`./results/edge-http-${date}.txt`, import.meta.url));
await runEdgeHttp(new Report(path), process.argv.slice(2));
