// Drill phase `kaspa-stratum`: the KAS port's faults, in figures, on the real kaspad simnet chain.
// 1. Template storm: kaspaminer mines blocks as fast as it can (about 40 a second here, more than
//    mainnet's 10) while miners are connected. The pool's source (at most KAS_MAX_JOBS_PER_SECOND
//    jobs a second, new jobs only for a new pre-PoW hash) is counted beside a source on the same
//    node without the limit: kaspad's announcements, fetches, jobs, jobs/s and bytes/s per miner.
//    Meanwhile one miner submits honest shares on the newest job it has: accepted vs stale.
// 2. Refusals: a duplicate, a low-difficulty, a malformed and a stale share, and their answers.
// 3. Blocks: shares under the network target submitted to kaspad, found in its DAG.
// Flags: --miners=N (default 20), --blocks=N (storm length in blocks, default 300).
import pino from 'pino';
import { setTimeout as delay } from 'node:timers/promises';
import {
  KaspaTemplateSource,
  KAS_MAX_JOBS_PER_SECOND,
} from '../../apps/server/src/coins/kaspa/template-source.js';
import type { KaspaTestMiner } from '../../apps/server/test/support/coins/kaspa/stratum/miner.js';
import {
  startKaspaStandalone,
  type KaspaStandalone,
} from '../../apps/server/test/support/coins/kaspa/stratum/standalone.js';
import { Report, fixed, int, load } from './report.js';

const JOB_VALID_MS = 10_000;

function parse(argv: string[]): { miners: number; blocks: number } {
  const options = { miners: 20, blocks: 300 };
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    if (key === 'miners') options.miners = Math.max(2, Number(value));
    if (key === 'blocks') options.blocks = Math.max(10, Number(value));
  }
  return options;
}

async function authorized(pool: KaspaStandalone, agent: string, worker: string): Promise<KaspaTestMiner> {
  const miner = await pool.connect();
  await miner.request('mining.subscribe', [agent, 'EthereumStratum/1.0.0']);
  await miner.request('mining.authorize', [`${pool.chain.poolAddress}.${worker}`, 'x']);
  await miner.jobCount(1);
  return miner;
}

const bytesOf = (miner: KaspaTestMiner): number =>
  miner.lines.reduce((sum, line) => sum + line.length + 1, 0);

async function storm(
  report: Report,
  pool: KaspaStandalone,
  miners: KaspaTestMiner[],
  blocks: number,
): Promise<void> {
  const unlimited = new KaspaTemplateSource({
    node: pool.chain.node,
    payAddress: pool.chain.poolAddress,
    logger: pino({ level: 'silent' }),
    maxJobsPerSecond: 1_000_000,
  });
  await unlimited.start();
  const before = { ...pool.source.figures };
  const jobsBefore = miners.map((m) => m.jobs.length);
  const bytesBefore = miners.map(bytesOf);
  const shooter = miners[0]!;
  const networkTarget = pool.source.current!.target;
  let accepted = 0;
  let stale = 0;
  let other = 0;
  let mining = true;
  const started = performance.now();
  const mined = pool.chain.mine(blocks).finally(() => (mining = false));
  while (mining) {
    const job = shooter.jobs[shooter.jobs.length - 1]!;
    const nonce = shooter.find(job, (pow, share) => pow <= share && pow > networkTarget);
    const reply = await shooter.submit('storm', job, nonce);
    if (reply.result === true) accepted++;
    else if (reply.error?.[1] === 'Stale job') stale++;
    else other++;
    await delay(20);
  }
  await mined;
  const seconds = (performance.now() - started) / 1000;
  await delay(500);
  await unlimited.stop();
  const after = pool.source.figures;
  const jobs = miners.map((m, i) => m.jobs.length - jobsBefore[i]!);
  const bytes = miners.map((m, i) => bytesOf(m) - bytesBefore[i]!);
  const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
  report.line(
    `  template storm: kaspaminer mined ${blocks} blocks in ${fixed(seconds)} s (${fixed(blocks / seconds)} blocks/s)`,
  );
  report.line(
    `  kaspad announcements ${int(after.announcements - before.announcements)}; pool source (limit ${KAS_MAX_JOBS_PER_SECOND}/s): ` +
      `fetches ${int(after.fetches - before.fetches)}, jobs ${int(after.jobs - before.jobs)} ` +
      `(${fixed((after.jobs - before.jobs) / seconds)}/s), coalesced ${int(after.coalesced - before.coalesced)}, ` +
      `unchanged ${int(after.unchanged - before.unchanged)}`,
  );
  report.line(
    `  same node without the limit: fetches ${int(unlimited.figures.fetches)}, jobs ${int(unlimited.figures.jobs)} ` +
      `(${fixed(unlimited.figures.jobs / seconds)}/s), unchanged ${int(unlimited.figures.unchanged)}`,
  );
  report.line(
    `  per miner (${miners.length}): ${fixed(mean(jobs) / seconds)} jobs/s, ${int(mean(bytes) / seconds)} bytes/s ` +
      `(min ${int(Math.min(...jobs))}, max ${int(Math.max(...jobs))} jobs)`,
  );
  report.line(
    `  honest shares on the newest job during the storm: ${int(accepted)} accepted, ${int(stale)} stale, ${int(other)} other ` +
      `(replaced jobs stay valid ${JOB_VALID_MS} ms)`,
  );
}

async function refusals(report: Report, pool: KaspaStandalone, miner: KaspaTestMiner): Promise<void> {
  const job = miner.jobs[miner.jobs.length - 1]!;
  const target = pool.source.current!.target;
  const good = miner.find(job, (pow, share) => pow <= share && pow > target);
  const answers: Record<string, string> = {};
  const said = (reply: { result: unknown; error: [number, string, null] | null }): string =>
    reply.error ? `[${reply.error[0]}, "${reply.error[1]}"]` : String(reply.result);
  answers.honest = said(await miner.submit('r', job, good));
  answers.duplicate = said(await miner.submit('r', job, good));
  answers['low difficulty'] = said(
    await miner.submit(
      'r',
      job,
      miner.find(job, (pow, share) => pow > share),
    ),
  );
  answers.malformed = said(await miner.submit('r', job, 'xyz'));
  answers['foreign extranonce'] = said(await miner.submit('r', job, 'ffffffff00000001'));
  answers['unknown job'] = said(await miner.submit('r', { ...job, id: '999999' }, '01'));
  for (const [kind, answer] of Object.entries(answers)) report.line(`  ${kind.padEnd(20)} -> ${answer}`);
  report.line(
    `  server counters: accepted ${int(pool.server.stats.accepted)}, rejected ${JSON.stringify(pool.server.stats.rejected)}`,
  );
}

async function blocks(
  report: Report,
  pool: KaspaStandalone,
  miner: KaspaTestMiner,
  count: number,
): Promise<void> {
  let inDag = 0;
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const job = miner.jobs[miner.jobs.length - 1]!;
    const nonce = miner.find(job, (pow) => pow <= pool.source.current!.target);
    const recorded = pool.sink.nextBlock();
    const started = performance.now();
    await miner.submit('b', job, nonce);
    const block = await recorded;
    times.push(performance.now() - started);
    const found = await pool.chain.node.getBlock(block.hash, false).catch(() => undefined);
    if (found?.verboseData?.hash === block.hash && block.status === 'pending') inDag++;
    await miner.jobCount(miner.jobs.length + 1).catch(() => undefined);
  }
  const sorted = times.sort((a, b) => a - b);
  report.line(
    `  blocks: ${count} found by shares, ${inDag} in kaspad's DAG (GetBlock); share -> recorded p50 ` +
      `${fixed(sorted[Math.floor(count / 2)] ?? Number.NaN, 2)} ms, max ${fixed(sorted[count - 1] ?? Number.NaN, 2)} ms`,
  );
}

export async function runEdgeKaspaStratum(report: Report, argv: string[]): Promise<void> {
  const options = parse(argv);
  report.line(`edge kaspa-stratum ${new Date().toISOString()} (load ${load()})`);
  const started = performance.now();
  const pool = await startKaspaStandalone({ logger: pino({ level: 'warn' }), jobValidMs: JOB_VALID_MS });
  try {
    report.line(`  simnet dev chain + KAS port up in ${fixed((performance.now() - started) / 1000)} s`);
    const miners: KaspaTestMiner[] = [];
    for (let i = 0; i < options.miners; i++)
      miners.push(await authorized(pool, i % 2 === 0 ? 'lolMiner 1.88' : 'BzMiner-v21.5.3', `rig${i}`));
    await storm(report, pool, miners, options.blocks);
    await refusals(report, pool, miners[1]!);
    await blocks(report, pool, miners[0]!, 5);
    report.line(`  load after: ${load()}`);
  } finally {
    await pool.stop();
  }
}
