// `npx tsx bench/edge-kaspad.ts`: the KAS node's faults in figures (see lib/edge-kaspad.ts).
import { runEdgeKaspad } from './lib/edge-kaspad.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().replace(/[:.]/g, '-');
await runEdgeKaspad(new Report(`bench/results/edge-kaspad-${date}.txt`), process.argv.slice(2));
