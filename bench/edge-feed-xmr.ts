// `npx tsx bench/edge-feed-xmr.ts [--cycles=5] [--dead=3000] [--tips=10]`: XMR on the core job
// feed, in figures: new tips at a region's miner, and blocks found while the region's leaf is dead.
import { runEdgeFeedXmr } from './lib/edge-feed-xmr.js';
import { Report } from './lib/report.js';

const date = new Date().toISOString().slice(0, 10);
await runEdgeFeedXmr(new Report(`bench/results/edge-feed-xmr-${date}.txt`), process.argv.slice(2));
