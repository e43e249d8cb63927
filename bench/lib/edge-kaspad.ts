// Drill phase `kaspad`: the KAS node's faults, in figures. The Go kaspad dev chain (simnet)
// starts as the pool would start it; then the node is frozen (SIGSTOP: silent but connected),
// and killed (kill -9: the shared supervisor restarts it on the same data), and the gRPC client
// is timed through each: how long a request waits before it fails, whether a late answer is
// kept away from younger requests, how long until the stream and the NewBlockTemplate
// subscription are back. Flags: --templates=N (GetBlockTemplate samples, default 30).
import pino from 'pino';
import { setTimeout as delay } from 'node:timers/promises';
import { startKaspaDevChain, type KaspaDevChain } from '../../apps/server/src/coins/kaspa/devchain.js';
import { KaspadClient } from '../../apps/server/src/coins/kaspa/kaspad-client.js';
import { ensureKaspad } from '../../scripts/kaspad.mjs';
import { Report, fixed, int, load, ms, percentile } from './report.js';

const SILENCE_TIMEOUT_MS = 1_000;

function parse(argv: string[]): { templates: number } {
  const options = { templates: 30 };
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    if (key === 'templates') options.templates = Math.max(1, Number(value));
  }
  return options;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

async function until(timeoutMs: number, probe: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (await probe().catch(() => false)) return performance.now() - started;
    await delay(50);
  }
  return Number.POSITIVE_INFINITY;
}

function kaspadPid(chain: KaspaDevChain): number {
  const pid = chain.nodeProcessIds()[0];
  if (pid === undefined) throw new Error('kaspad is not running');
  return pid;
}

async function templates(report: Report, chain: KaspaDevChain, count: number): Promise<void> {
  const samples = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    samples[i] = (await timed(() => chain.node.getBlockTemplate(chain.poolAddress, 'manjam-drill'))).ms;
  }
  samples.sort();
  report.line(
    `  GetBlockTemplate x ${count}: p50 ${ms(percentile(samples, 50))}, p95 ${ms(percentile(samples, 95))}, ` +
      `max ${ms(samples[count - 1] ?? Number.NaN)}`,
  );
}

/** SIGSTOP: the node keeps the connection open and says nothing. */
async function silence(report: Report, chain: KaspaDevChain): Promise<void> {
  const client = new KaspadClient({ address: chain.rpcAddress, timeoutMs: SILENCE_TIMEOUT_MS });
  const before = await client.getBlockDagInfo();
  const pid = kaspadPid(chain);
  process.kill(pid, 'SIGSTOP');
  const started = performance.now();
  const failure = await client
    .getBlockDagInfo()
    .then(
      () => 'answered',
      (err: unknown) => (err instanceof Error && 'kind' in err ? String(err.kind) : String(err)),
    )
    .finally(() => process.kill(pid, 'SIGCONT'));
  const waited = performance.now() - started;
  const next = await timed(() => client.getInfo());
  const again = await client.getBlockDagInfo();
  client.close();
  report.line(
    `  frozen node (SIGSTOP): request failed as '${failure}' after ${fixed(waited, 0)} ms ` +
      `(deadline ${SILENCE_TIMEOUT_MS} ms); after SIGCONT the next request answered in ${ms(next.ms)}`,
  );
  report.line(
    `  late answer of the timed-out request dropped: the next DAG info request got its own answer ` +
      `(block count ${before.blockCount} -> ${again.blockCount}, network ${again.networkName})`,
  );
}

/** kill -9: the supervisor restarts kaspad on the same data; the client finds it again. */
async function killNode(report: Report, chain: KaspaDevChain): Promise<void> {
  let notifications = 0;
  const unsubscribe = await chain.node.onNewBlockTemplate(() => notifications++);
  const { blockCount } = await chain.node.getBlockDagInfo();
  const pid = kaspadPid(chain);
  const killed = performance.now();
  process.kill(pid, 'SIGKILL');
  const pending = await chain.node.getInfo().then(
    () => 'answered',
    (err: unknown) => (err instanceof Error && 'kind' in err ? String(err.kind) : String(err)),
  );
  const failedAfter = performance.now() - killed;
  const seen = notifications;
  const answering = await until(120_000, async () => Boolean(await chain.node.getInfo()));
  const resubscribed = await until(30_000, () => Promise.resolve(notifications > seen));
  const after = await chain.node.getBlockDagInfo();
  const mined = await timed(async () => {
    const count = notifications;
    await chain.mine(1);
    await until(10_000, () => Promise.resolve(notifications > count));
  });
  unsubscribe();
  report.line(
    `  kill -9 kaspad (pid ${pid}): a request in flight failed as '${pending}' after ${fixed(failedAfter, 0)} ms; ` +
      `restarted kaspad (pid ${kaspadPid(chain)}) answered ${fixed(failedAfter + answering, 0)} ms after the kill`,
  );
  report.line(
    `  NewBlockTemplate subscription back ${Number.isFinite(resubscribed) ? `${fixed(resubscribed, 0)} ms after that` : 'NEVER'}; ` +
      `blocks kept across the restart: ${blockCount} -> ${after.blockCount}; ` +
      `next block mined + notified in ${ms(mined.ms)}`,
  );
}

export async function runEdgeKaspad(report: Report, argv: string[]): Promise<void> {
  const options = parse(argv);
  report.line('');
  report.line(`== kaspad: install, dev chain, frozen node, killed node (load ${load()}) ==`);
  const install = await timed(() => ensureKaspad({ quiet: true }));
  const installed = install.value;
  if (!installed.ok) {
    report.line(`  ${installed.reason}`);
    return;
  }
  report.line(
    `  install: ${installed.built ? `built kaspad/kaspawallet/kaspaminer in ${fixed(install.ms / 1000, 1)} s` : `already built (${fixed(install.ms, 0)} ms check)`}`,
  );
  const start = await timed(() =>
    startKaspaDevChain({ binaries: installed.binaries, logger: pino({ level: 'error' }), unfunded: true }),
  );
  const chain = start.value;
  try {
    report.line(
      `  dev chain up (kaspad simnet + pool wallet daemon, not funded): ${fixed(start.ms / 1000, 1)} s`,
    );
    const blocks = 40;
    const mining = await timed(() => chain.mine(blocks));
    report.line(
      `  kaspaminer: ${blocks} blocks in ${fixed(mining.ms / 1000, 1)} s (${fixed((blocks * 1000) / mining.ms, 1)} blocks/s), ` +
        `DAA score ${int(Number(await chain.daaScore()))}`,
    );
    await templates(report, chain, options.templates);
    await silence(report, chain);
    await killNode(report, chain);
  } finally {
    const stopped = await timed(() => chain.stop());
    report.line(`  dev chain stopped in ${fixed(stopped.ms, 0)} ms`);
  }
}
