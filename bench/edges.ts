// `npm run drill:edges`: the edges an outsider reaches, in figures (asserts nothing). Each phase
// attacks a running pool the way a stranger could and prints what honest users saw meanwhile.
//   --only=<phase>[,<phase>]  run some phases; other flags go to the phases (see bench/README.md),
//   so flags of one phase go with --only=<that phase>.
import { Report } from './lib/report.js';
import { runEdgeAccounts } from './lib/edge-accounts.js';
import { runEdgeBacklog } from './lib/edge-backlog.js';
import { runEdgeFeedXmr } from './lib/edge-feed-xmr.js';
import { runEdgeFlood } from './lib/edge-flood.js';
import { runEdgeHttp } from './lib/edge-http.js';
import { runEdgeKaspad } from './lib/edge-kaspad.js';
import { runEdgeKaspaPow } from './lib/edge-kaspa-pow.js';
import { runEdgeKaspaStratum } from './lib/edge-kaspa-stratum.js';
import { runEdgeLeaf } from './lib/edge-leaf.js';
import { runEdgeProto } from './lib/edge-proto.js';
import { runEdgeShutdown } from './lib/edge-shutdown.js';
import { runEdgeSv2 } from './lib/edge-sv2.js';
import { runEdgeSv2Pool } from './lib/edge-sv2-pool.js';
import { runEdgeWorkers } from './lib/edge-workers.js';
import { runEdgeTokens } from './lib/edge-tokens.js';
import { runEdgeWebhook } from './lib/edge-webhook.js';
import { runEdgeSeed } from './lib/edge-seed.js';
import {
  runEdgeHttpHolds,
  runEdgePortFill,
  runEdgeStranger,
  runEdgeSv2Channels,
  runEdgeSv2Flood,
} from './lib/edge-caps.js';

type Phase = (report: Report, argv: string[]) => Promise<void>;

const PHASES: ReadonlyMap<string, Phase> = new Map<string, Phase>([
  ['flood', runEdgeFlood],
  ['proto', runEdgeProto],
  ['workers', runEdgeWorkers],
  ['http', runEdgeHttp],
  ['accounts', runEdgeAccounts],
  ['leaf', runEdgeLeaf],
  ['backlog', runEdgeBacklog],
  ['kaspa-pow', runEdgeKaspaPow],
  ['kaspad', runEdgeKaspad],
  ['kaspa-stratum', runEdgeKaspaStratum],
  ['sv2', runEdgeSv2],
  ['sv2-pool', runEdgeSv2Pool],
  ['feed-xmr', runEdgeFeedXmr],
  ['shutdown', runEdgeShutdown],
  ['tokens', runEdgeTokens],
  ['webhook', runEdgeWebhook],
  ['seed', runEdgeSeed],
  ['sv2-flood', runEdgeSv2Flood],
  ['port-fill', runEdgePortFill],
  ['http-holds', runEdgeHttpHolds],
  ['sv2-channels', runEdgeSv2Channels],
  ['stranger', runEdgeStranger],
]);

const args = process.argv.slice(2);
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
// The phases get every flag but --only (some refuse flags they do not know).
const argv = args.filter((arg) => !arg.startsWith('--only='));
const unknown = only?.filter((name) => !PHASES.has(name)) ?? [];
if (unknown.length > 0) {
  console.error(`unknown phase(s): ${unknown.join(', ')}; phases: ${[...PHASES.keys()].join(', ')}`);
  process.exit(2);
}
const report = new Report(`bench/results/edges-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`);
report.line(`drill:edges ${new Date().toISOString()}`);
for (const [name, phase] of PHASES) {
  if (only && !only.includes(name)) continue;
  report.line();
  await phase(report, argv);
}
