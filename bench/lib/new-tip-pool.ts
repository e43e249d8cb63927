// The pool under test in the new-tip phase (forked by lib/new-tip.ts): the real startStratum with
// one BTC port, fed by the real chain path — ChainNode, TemplateWatcher (blocknotify, longpoll and
// its poll), createChainSource — against the benchmark's fake node. Share difficulty is frozen at
// the protocol minimum. Answers usage requests like lib/pool-process.ts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIN_SHARE_DIFFICULTY } from '@manjam/protocol';
import { pino } from 'pino';
import { ChainNode, TemplateWatcher } from '../../apps/server/src/coins/bitcoin/node/index.js';
import { createChainSource } from '../../apps/server/src/coins/bitcoin/chain-source.js';
import { parseConfig } from '../../apps/server/src/config/index.js';
import { PoolEvents } from '../../apps/server/src/events.js';
import { RuntimeMonitor, type LoopFigures } from '../../apps/server/src/http/metrics-runtime.js';
import { startStratum } from '../../apps/server/src/stratum/index.js';
import { openBenchDatabase, type BenchDatabaseKind } from './database.js';
import { MAINNET_POOL_ADDRESS } from './frozen-source.js';
import { chainOfSources } from '../../apps/server/src/coins/bitcoin/family.js';

export type NewTipPoolMessage =
  | { type: 'ready'; port: number; blocknotifyPort: number }
  | { type: 'usage'; cpuUs: number; rss: number; connections: number }
  /** Since the last ask (wall-clock ms): when the pool had a tip's header, had written a clean job to every miner, had a new tip's full template. */
  | {
      type: 'marks';
      headerAsked: number[];
      tipHeard: number[];
      cleanSent: number[];
      templateIn: number[];
      loop: LoopFigures;
    }
  | { type: 'error'; message: string };

async function main(kind: BenchDatabaseKind, url: string): Promise<void> {
  const send = (message: NewTipPoolMessage) => process.send?.(message);
  const database = await openBenchDatabase(kind);
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-bench-tip-'));
  const difficulty = MIN_SHARE_DIFFICULTY.sha256d;
  const config = parseConfig({
    dataDir,
    log: { level: 'silent' },
    stratum: {
      host: '127.0.0.1',
      maxConnectionsPerIp: 100_000,
      seats: { perAddress: 100_000 },
      ports: [
        {
          port: 0,
          coin: 'BTC',
          vardiff: { start: difficulty, min: difficulty, max: difficulty, retargetSeconds: 86_400 },
        },
      ],
    },
  });
  const logger = pino({ level: 'silent' });
  const node = new ChainNode({ coin: 'BTC', rpc: { url, user: 'bench', password: 'bench' } });
  const watcher = new TemplateWatcher({ node, logger, blocknotifyPort: 0 });
  const source = createChainSource({
    coin: 'BTC',
    network: 'mainnet',
    poolAddress: MAINNET_POOL_ADDRESS.BTC,
    node,
    watcher,
  });
  await watcher.start();
  const events = new PoolEvents();
  const nowMs = () => performance.timeOrigin + performance.now();
  const noMarks = () => ({
    headerAsked: [] as number[],
    tipHeard: [] as number[],
    cleanSent: [] as number[],
    templateIn: [] as number[],
  });
  let marks = noMarks();
  // When the watcher asks the new tip's header: the datagram has been read (blocknotify's path).
  const askHeader = node.getBlockHeader.bind(node);
  node.getBlockHeader = (hash) => {
    marks.headerAsked.push(nowMs());
    return askHeader(hash);
  };
  // Event-loop delay and GC pauses between two asks (one block's window).
  const runtime = new RuntimeMonitor(0);
  source.onTip?.(() => marks.tipHeard.push(nowMs()));
  source.onTemplate((_template, info) => {
    if (info.newTip) marks.templateIn.push(nowMs());
  });
  // 'template.new' is emitted once the job's lines are written to every session.
  events.on('template.new', (e) => {
    if (e.newTip) marks.cleanSent.push(nowMs());
  });
  const stratum = await startStratum({
    config,
    db: database.db,
    logger,
    events,
    chains: [chainOfSources([source])],
  });
  const stop = async () => {
    await stratum.stop().catch(() => undefined);
    source.close();
    await watcher.stop();
    node.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('message', (request: { type: 'usage' | 'marks' | 'stop' }) => {
    if (request.type === 'stop') return void stop();
    if (request.type === 'marks') {
      send({ type: 'marks', ...marks, loop: runtime.current() });
      runtime.reset();
      marks = noMarks();
      return;
    }
    const cpu = process.cpuUsage();
    send({
      type: 'usage',
      cpuUs: cpu.user + cpu.system,
      rss: process.memoryUsage.rss(),
      connections: stratum.stats().connections,
    });
  });
  process.on('disconnect', () => void stop());
  send({
    type: 'ready',
    port: stratum.ports()[0]?.port ?? 0,
    blocknotifyPort: watcher.status().blocknotifyPort ?? 0,
  });
}

const [kind, url] = process.argv.slice(2);
if ((kind === 'pglite' || kind === 'postgres') && url) {
  main(kind, url).catch((error: unknown) => {
    process.send?.({ type: 'error', message: (error as Error).stack ?? String(error) });
    process.exit(1);
  });
} else {
  process.stderr.write('usage: new-tip-pool.ts <pglite|postgres> <node url>\n');
  process.exit(2);
}
