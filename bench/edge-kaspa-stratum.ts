// `npx tsx bench/edge-kaspa-stratum.ts`: the KAS Stratum port's faults in figures (see lib/edge-kaspa-stratum.ts).
import { runEdgeKaspaStratum } from './lib/edge-kaspa-stratum.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().replace(/[:.]/g, '-');
await runEdgeKaspaStratum(new Report(`bench/results/edge-kaspa-stratum-${date}.txt`), process.argv.slice(2));
