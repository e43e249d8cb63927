// The new-tip phase: how long after the node's tip changes every miner has work on it. A fake
// node in its own process (lib/fake-node.ts) serves a mainnet-like chain whose templates carry
// 2,000 transactions and, like Bitcoin Core, runs the pool's -blocknotify command as its tip moves
// and answers held longpolls once it has built the new template; the pool (lib/new-tip-pool.ts)
// follows it through the real template watcher (blocknotify, longpoll, poll) and sends jobs
// through the real Stratum server. For each new block the figure is, per miner, the time from the
// node's tip change to that miner reading its first clean mining.notify on the new previous block:
// idle, then with `depth` submits in flight per miner. With `pin`: the pool on core 0, the fake
// node (and the commands it runs) with the load generator on core 1.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { prevHashToStratum } from '@manjam/protocol';
import { blocknotifyCommand } from '../../apps/server/src/coins/bitcoin/node/index.js';
import type { BenchDatabaseKind } from './database.js';
import { FakeNodeHandle } from './fake-node-handle.js';
import { MAINNET_POOL_ADDRESS } from './frozen-source.js';
import { Generator } from './generator.js';
import type { NewTipPoolMessage } from './new-tip-pool.js';
import { pinProcess } from './pool-handle.js';
import { int, ms, percentile, verdict, type Report } from './report.js';
import { poolProcessEnv } from './pool-env.js';
import { measureLoopbackFloor } from './loopback-floor.js';

export interface NewTipOptions {
  db: BenchDatabaseKind;
  connections: number;
  /** New blocks per condition (idle, under load). */
  tips: number;
  /** Submits in flight per miner under load. */
  depth: number;
  threads: number;
  /** Pool on core 0; the fake node with this process (the generator) on core 1. */
  pin: boolean;
  /** Write a V8 CPU profile of the pool process there (node --cpu-prof). */
  profileDir: string | undefined;
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
  core: number | undefined,
  profileDir: string | undefined,
): Promise<{ child: ChildProcess; port: number; notify: number }> {
  const script = fileURLToPath(new URL('./new-tip-pool.ts', import.meta.url));
  const profile = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  const child = fork(script, [db, url], {
    execArgv: ['--import', 'tsx', ...profile],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: poolProcessEnv(),
  });
  // Before it starts its threads: they inherit the affinity of the thread that creates them.
  if (core !== undefined && child.pid !== undefined) pinProcess(child.pid, core);
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

/**
 * Per new block, ms after the node's tip change: at the node, its blocknotify command done and its
 * last held longpoll answered (none: NaN); inside the pool, tip header heard, clean job written to
 * every miner, full template in.
 */
interface PoolSide {
  /** The pool asked the node for the tip's header (it had read the datagram). */
  asked: number[];
  heard: number[];
  sent: number[];
  template: number[];
  longpoll: number[];
  /** The node's blocknotify command exited (its datagram sent). */
  notified: number[];
  /** The pool's event-loop delay p99 and longest GC pause over the block's window (ms). */
  loopP99: number[];
  gcMax: number[];
}

const newSide = (): PoolSide => ({
  asked: [],
  heard: [],
  sent: [],
  template: [],
  longpoll: [],
  notified: [],
  loopP99: [],
  gcMax: [],
});

/** Moves the tip and waits until every miner has a clean job on it (or WAIT_MS); per-miner delays. */
async function oneTip(
  node: FakeNodeHandle,
  generator: Generator,
  connections: number,
  child: ChildProcess,
  side: PoolSide,
): Promise<number[]> {
  await marks(child);
  const mined = await node.mine();
  const at = mined.at;
  const prevhash = prevHashToStratum(mined.hash);
  const until = performance.now() + WAIT_MS;
  let times: number[] = [];
  do {
    await sleep(50);
    times = await generator.tipTimes(prevhash);
  } while (times.filter(Number.isFinite).length < connections && performance.now() < until);
  const inside = await marks(child);
  side.asked.push((inside.headerAsked[0] ?? Number.NaN) - at);
  side.heard.push((inside.tipHeard[0] ?? Number.NaN) - at);
  side.sent.push((inside.cleanSent[0] ?? Number.NaN) - at);
  side.template.push((inside.templateIn[0] ?? Number.NaN) - at);
  side.longpoll.push(mined.longpolls > 0 ? mined.answeredAfterMs : Number.NaN);
  side.notified.push(mined.notifiedAfterMs);
  side.loopP99.push(inside.loop.delayP99Ms);
  side.gcMax.push(inside.loop.gcMaxMs);
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

/** A mining.notify-shaped line of 400 bytes (a coinbase-only job's line is 300-500 bytes). */
const FLOOR_LINE = `{"id":null,"method":"mining.notify","params":["${'0'.repeat(349)}"]}\n`;

export async function runNewTip(report: Report, o: NewTipOptions): Promise<NewTipFigures> {
  // Before the pool and the node start: this process alone, idle.
  const floor = await measureLoopbackFloor(o.connections, FLOOR_LINE);
  const node = await FakeNodeHandle.start();
  if (o.pin) pinProcess(node.pid, 1);
  const pool = await startPool(o.db, node.url, o.pin ? 0 : undefined, o.profileDir);
  // The command an operator gives the node (README): the pool's own blocknotifyCommand.
  node.blocknotify(blocknotifyCommand(pool.notify, 'BTC'));
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
    const idleSide = newSide();
    const loadedSide = newSide();
    // Two blocks first, not counted: the pool's new-tip path runs before it is timed, and its
    // watcher, having heard the node's blocknotify datagram at the first, holds no longpoll from
    // the second on (the longpoll held at the first is answered at the second, as Core does).
    for (let i = 0; i < 2; i++) await oneTip(node, generator, connected.ok, pool.child, newSide());
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
      `[new-tip] BTC, ${int(figures.connections)} miners, ${o.tips} new blocks idle (after two not counted) and ${o.tips} under load; node tip change -> each miner reads its first clean mining.notify on it (fake node in its own process: blocknotify command, longpoll, 2,000-transaction templates), database ${o.db}${o.pin ? '; pinned: pool on core 0, fake node and generator on core 1' : ''}`,
    );
    const each = (values: number[]) => values.map((n) => (Number.isFinite(n) ? n.toFixed(0) : '-')).join('/');
    const sideLine = (side: PoolSide) =>
      `    per block, ms after the tip: node sent blocknotify +${each(side.notified)}, answered a held longpoll +${each(side.longpoll)} ('-': none held); ` +
      `pool asked the tip's header +${each(side.asked)}, read it +${each(side.heard)}, wrote the clean job to every miner +${each(side.sent)}, had the full template +${each(side.template)}; ` +
      `pool event-loop delay p99 ${each(side.loopP99)} ms, longest GC pause ${each(side.gcMax)} ms`;
    // The pool's own part: the kernel has the job for every miner. Under load the miners read it
    // later than that: the generator's two threads are the miners, and they are busy.
    const written = (side: PoolSide) => {
      const sent = side.sent.filter(Number.isFinite).sort((a, b) => a - b);
      return `    pool side: the clean job written to every miner, over the blocks: median ${ms(sent[Math.floor(sent.length / 2)] ?? Number.NaN)}, max ${ms(sent.at(-1) ?? Number.NaN)} after the tip`;
    };
    report.line(
      `  this machine's floor: an idle Node process writes a ${floor.lineBytes}-byte line to ${int(floor.sockets)} loopback sockets in ${ms(floor.medianMs)} (median of 7, max ${ms(floor.maxMs)})`,
    );
    report.line(line('idle', figures.idle));
    report.line(sideLine(idleSide));
    report.line(written(idleSide));
    report.line(
      line(
        `under load (${o.depth} submits in flight per miner, ${int(figures.loadedAcceptedPerSecond)} accepted shares/s)`,
        figures.loaded,
      ),
    );
    report.line(sideLine(loadedSide));
    report.line(written(loadedSide));
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
