// The new-tip phase: how long after the node's tip changes every miner has work on it. A fake
// node (lib/fake-node.ts) serves a mainnet-like chain whose templates carry 2,000 transactions; the
// pool (lib/new-tip-pool.ts) follows it through the real template watcher (blocknotify,
// longpoll, poll) and sends jobs through the real Stratum server. For each new block the figure
// is, per miner, the time from the node's tip change to that miner reading its first clean
// mining.notify on the new previous block: idle, then with `depth` submits in flight per miner.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { prevHashToStratum } from '@manjam/protocol';
import type { BenchDatabaseKind } from './database.js';
import { FakeNode } from './fake-node.js';
import { MAINNET_POOL_ADDRESS } from './frozen-source.js';
import { Generator } from './generator.js';
import type { NewTipPoolMessage } from './new-tip-pool.js';
import { int, ms, percentile, verdict, type Report } from './report.js';

export interface NewTipOptions {
  db: BenchDatabaseKind;
  connections: number;
  /** New blocks per condition (idle, under load). */
  tips: number;
  /** Submits in flight per miner under load. */
  depth: number;
  threads: number;
}

export interface TipFigures {
  p50: number;
  p99: number;
  max: number;
  /** Miner-tips that had no clean job within the wait (they rank above every measured one). */
  missing: number;
  /** Per new block, when its last miner had the job (ms; Infinity when one never did). */
  lastPerTip: number[];
}

export interface NewTipFigures {
  connections: number;
  depth: number;
  idle: TipFigures;
  loaded: TipFigures;
  /** Accepted shares/s during the loaded runs (the load the tips arrived under). */
  loadedAcceptedPerSecond: number;
}

const WAIT_MS = 5_000;
const LOAD_SECONDS = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startPool(
  db: BenchDatabaseKind,
  url: string,
): Promise<{ child: ChildProcess; port: number; notify: number }> {
  const script = fileURLToPath(new URL('./new-tip-pool.ts', import.meta.url));
  const child = fork(script, [db, url], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Extract<NewTipPoolMessage, { type: 'ready' }>>((resolve, reject) => {
    child.once('message', (m: NewTipPoolMessage) =>
      m.type === 'ready'
        ? resolve(m)
        : reject(new Error(m.type === 'error' ? m.message : 'unexpected message')),
    );
    child.once('exit', (code) => reject(new Error(`new-tip pool process exited with ${code}`)));
  });
  return { child, port: ready.port, notify: ready.blocknotifyPort };
}

async function stopPool(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.send({ type: 'stop' });
  const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(kill);
}

function marks(child: ChildProcess): Promise<Extract<NewTipPoolMessage, { type: 'marks' }>> {
  return new Promise((resolve, reject) => {
    const onExit = () => reject(new Error('new-tip pool process exited'));
    const onMessage = (m: NewTipPoolMessage) => {
      if (m.type !== 'marks') return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send({ type: 'marks' });
  });
}

/** Inside the pool, per new block: tip header heard, and clean job written to every miner (ms after the node's tip change). */
interface PoolSide {
  heard: number[];
  sent: number[];
}

/** Moves the tip and waits until every miner has a clean job on it (or WAIT_MS); per-miner delays. */
async function oneTip(
  node: FakeNode,
  generator: Generator,
  connections: number,
  child: ChildProcess,
  side: PoolSide,
): Promise<number[]> {
  await marks(child);
  const at = node.mine();
  const prevhash = prevHashToStratum(node.tipHash);
  const until = performance.now() + WAIT_MS;
  let times: number[] = [];
  do {
    await sleep(50);
    times = await generator.tipTimes(prevhash);
  } while (times.filter(Number.isFinite).length < connections && performance.now() < until);
  const inside = await marks(child);
  side.heard.push((inside.tipHeard[0] ?? Number.NaN) - at);
  side.sent.push((inside.cleanSent[0] ?? Number.NaN) - at);
  return times.filter(Number.isFinite).map((t) => t - at);
}

function summarize(perTip: number[][], connections: number): TipFigures {
  const expected = connections * perTip.length;
  const sorted = Float64Array.from(perTip.flat()).sort();
  return {
    p50: percentile(sorted, 50, expected),
    p99: percentile(sorted, 99, expected),
    max: percentile(sorted, 100, expected),
    missing: expected - sorted.length,
    lastPerTip: perTip.map((d) => (d.length < connections ? Infinity : Math.max(...d))),
  };
}

export async function runNewTip(report: Report, o: NewTipOptions): Promise<NewTipFigures> {
  const node = await FakeNode.start();
  const pool = await startPool(o.db, node.url);
  node.notifyTo(pool.notify);
  const generator = Generator.start(o.threads, {
    port: pool.port,
    host: '127.0.0.1',
    coin: 'BTC',
    login: `${MAINNET_POOL_ADDRESS.BTC}.bench`,
  });
  try {
    const connected = await generator.connect(o.connections);
    if (connected.failed > 0)
      throw new Error(`new-tip: ${connected.failed} miners failed to connect: ${connected.firstError}`);
    const idleSide: PoolSide = { heard: [], sent: [] };
    const loadedSide: PoolSide = { heard: [], sent: [] };
    // One block first, not counted: the pool's new-tip path runs once before it is timed.
    await oneTip(node, generator, connected.ok, pool.child, { heard: [], sent: [] });
    const idle: number[][] = [];
    for (let i = 0; i < o.tips; i++) {
      await sleep(300);
      idle.push(await oneTip(node, generator, connected.ok, pool.child, idleSide));
    }
    const loaded: number[][] = [];
    let accepted = 0;
    let seconds = 0;
    for (let i = 0; i < o.tips; i++) {
      await generator.prepare(Math.ceil((60_000 * LOAD_SECONDS) / connected.ok));
      const running = generator.run({ mode: 'max', seconds: LOAD_SECONDS, depth: o.depth });
      await sleep((LOAD_SECONDS * 1000) / 2);
      loaded.push(await oneTip(node, generator, connected.ok, pool.child, loadedSide));
      const run = await running;
      accepted += run.acceptedInTime;
      seconds += run.seconds;
    }
    const figures: NewTipFigures = {
      connections: connected.ok,
      depth: o.depth,
      idle: summarize(idle, connected.ok),
      loaded: summarize(loaded, connected.ok),
      loadedAcceptedPerSecond: accepted / Math.max(seconds, 1e-9),
    };
    const line = (label: string, f: TipFigures) =>
      `  ${label}: p50 ${ms(f.p50)}, p99 ${ms(f.p99)}, max ${ms(f.max)}${f.missing > 0 ? `, ${int(f.missing)} miner-tips with no job in ${WAIT_MS / 1000} s` : ''}; ` +
      `last miner per block: ${f.lastPerTip.map((n) => (Number.isFinite(n) ? n.toFixed(0) : 'never')).join(', ')} ms`;
    report.line(
      `[new-tip] BTC, ${int(figures.connections)} miners, ${o.tips} new blocks idle (after one not counted) and ${o.tips} under load; node tip change -> each miner reads its first clean mining.notify on it (fake node: blocknotify, longpoll, 2,000-transaction templates), database ${o.db}`,
    );
    const sideLine = (side: PoolSide) =>
      `    inside the pool, per block: tip header read +${side.heard.map((n) => (Number.isFinite(n) ? n.toFixed(0) : '-')).join('/')} ms, ` +
      `clean job written to every miner +${side.sent.map((n) => n.toFixed(0)).join('/')} ms`;
    report.line(line('idle', figures.idle));
    report.line(sideLine(idleSide));
    report.line(
      line(
        `under load (${o.depth} submits in flight per miner, ${int(figures.loadedAcceptedPerSecond)} accepted shares/s)`,
        figures.loaded,
      ),
    );
    report.line(sideLine(loadedSide));
    report.line(
      `  target p99 <= 30 ms: idle ${verdict(figures.idle.p99 <= 30)}, under load ${verdict(figures.loaded.p99 <= 30)}`,
    );
    return figures;
  } finally {
    await generator.close().catch(() => undefined);
    await stopPool(pool.child);
    await node.close();
  }
}
