// `npx tsx bench/edge-flood.ts`: the drill phase "flood" alone (bench/lib/edge-flood.ts).
import { runEdgeFlood } from './lib/edge-flood.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().slice(0, 10);
await runEdgeFlood(new Report(`bench/results/edge-flood-${date}.txt`), process.argv.slice(2));
