// `npx tsx bench/edge-tokens.ts [--flood=600] [--db=pglite|postgres]`: read-only API tokens and
// watcher links under their faults, in figures (see lib/edge-tokens.ts).
import { runEdgeTokens } from './lib/edge-tokens.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().replace(/[:.]/g, '-');
await runEdgeTokens(new Report(`bench/results/edge-tokens-${date}.txt`), process.argv.slice(2));
