// `npm run drill:edges`: the edges an outsider reaches, in figures (asserts nothing). Each phase
// attacks a running pool the way a stranger could and prints what honest users saw meanwhile.
//   --only=<phase>[,<phase>]  run some phases; other flags go to the phases (see bench/README.md),
//   so flags of one phase go with --only=<that phase>.
import { Report } from './lib/report.js';

type Phase = (report: Report, argv: string[]) => Promise<void>;

const PHASES: ReadonlyMap<string, Phase> = new Map<string, Phase>([
  // Each phase's module is loaded when it runs: a phase's imports (and their breakage) never stop the others.
  ['flood', async (report, argv) => (await import('./lib/edge-flood.js')).runEdgeFlood(report, argv)],
  ['proto', async (report, argv) => (await import('./lib/edge-proto.js')).runEdgeProto(report, argv)],
  ['workers', async (report, argv) => (await import('./lib/edge-workers.js')).runEdgeWorkers(report, argv)],
  ['http', async (report, argv) => (await import('./lib/edge-http.js')).runEdgeHttp(report, argv)],
  [
    'accounts',
    async (report, argv) => (await import('./lib/edge-accounts.js')).runEdgeAccounts(report, argv),
  ],
  ['leaf', async (report, argv) => (await import('./lib/edge-leaf.js')).runEdgeLeaf(report, argv)],
  ['backlog', async (report, argv) => (await import('./lib/edge-backlog.js')).runEdgeBacklog(report, argv)],
  [
    'kaspa-pow',
    async (report, argv) => (await import('./lib/edge-kaspa-pow.js')).runEdgeKaspaPow(report, argv),
  ],
  ['kaspad', async (report, argv) => (await import('./lib/edge-kaspad.js')).runEdgeKaspad(report, argv)],
  [
    'kaspa-stratum',
    async (report, argv) => (await import('./lib/edge-kaspa-stratum.js')).runEdgeKaspaStratum(report, argv),
  ],
  ['sv2', async (report, argv) => (await import('./lib/edge-sv2.js')).runEdgeSv2(report, argv)],
  ['sv2-pool', async (report, argv) => (await import('./lib/edge-sv2-pool.js')).runEdgeSv2Pool(report, argv)],
  ['feed-xmr', async (report, argv) => (await import('./lib/edge-feed-xmr.js')).runEdgeFeedXmr(report, argv)],
  [
    'shutdown',
    async (report, argv) => (await import('./lib/edge-shutdown.js')).runEdgeShutdown(report, argv),
  ],
  ['tokens', async (report, argv) => (await import('./lib/edge-tokens.js')).runEdgeTokens(report, argv)],
  ['webhook', async (report, argv) => (await import('./lib/edge-webhook.js')).runEdgeWebhook(report, argv)],
  ['seed', async (report, argv) => (await import('./lib/edge-seed.js')).runEdgeSeed(report, argv)],
  ['sv2-flood', async (report, argv) => (await import('./lib/edge-caps.js')).runEdgeSv2Flood(report, argv)],
  ['port-fill', async (report) => (await import('./lib/edge-caps.js')).runEdgePortFill(report)],
  ['http-holds', async (report, argv) => (await import('./lib/edge-caps.js')).runEdgeHttpHolds(report, argv)],
  [
    'sv2-channels',
    async (report, argv) => (await import('./lib/edge-caps.js')).runEdgeSv2Channels(report, argv),
  ],
  ['stranger', async (report, argv) => (await import('./lib/edge-caps.js')).runEdgeStranger(report, argv)],
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
