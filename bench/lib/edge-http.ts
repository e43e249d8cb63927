// Edge drill `http` (issue 25, item 4): a real `manjam start --role all` pool (its own BTC dev
// chain, its embedded database) flooded with HTTP connections that send headers that never end,
// from one address and then from many, while a bystander probes Stratum (a real subscribe and
// authorize on a fresh connection) and /api/health (a fresh connection) once a second. Prints
// the attacker's counts, the probes' answers and latency, and the pool's open descriptors.
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BTC_REGTEST_ADDRESS } from '../../apps/server/test/support/coins/bitcoin/stratum/fake-source.js';
import { StratumTestClient } from '../../apps/server/test/support/coins/bitcoin/stratum/client.js';
import { startPoolProcess, type PoolProcess } from '../../apps/server/test/support/pool-processes.js';
import type { FloodCounts, FloodRequest } from './edge-http-flood.js';
import { processCpuUs } from './proc-cpu.js';
import { fixed, int, load, ms, percentile, verdict, type Report } from './report.js';

interface Options {
  connections: number;
  seconds: number;
  perSecond: number;
  addresses: number;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { connections: 20_000, seconds: 15, perSecond: 4_000, addresses: 100 };
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`invalid option ${arg}`);
    if (key === 'connections') options.connections = n;
    else if (key === 'seconds') options.seconds = n;
    else if (key === 'rate') options.perSecond = n;
    else if (key === 'addresses') options.addresses = Math.min(n, 250);
    else throw new Error(`unknown option ${arg} (--connections, --seconds, --rate, --addresses)`);
  }
  return options;
}

interface Probes {
  /** The pool process's CPU over the probes, in percent of one core. */
  cpuPercent: number;
  stratum: number[];
  health: number[];
  stratumMissed: number;
  healthMissed: number;
  fdsMax: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function probeStratum(port: number): Promise<number | undefined> {
  const started = performance.now();
  try {
    const client = await StratumTestClient.connect(port, { localAddress: '127.0.0.1' });
    const timeout = sleep(5_000).then(() => undefined);
    const answered = await Promise.race([
      (async () => {
        const subscribed = await client.subscribe();
        const authorized = await client.authorize(`${BTC_REGTEST_ADDRESS}.bystander`);
        return subscribed.error === null && authorized.result === true;
      })(),
      timeout,
    ]);
    await client.close();
    return answered ? performance.now() - started : undefined;
  } catch {
    return undefined;
  }
}

function probeHealth(url: string): Promise<number | undefined> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.get(
      `${url}/api/health`,
      { agent: false, localAddress: '127.0.0.1', timeout: 5_000 },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ? performance.now() - started : undefined));
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(undefined));
  });
}

const openFds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

async function probe(pool: PoolProcess, seconds: number): Promise<Probes> {
  const probes: Probes = {
    cpuPercent: 0,
    stratum: [],
    health: [],
    stratumMissed: 0,
    healthMissed: 0,
    fdsMax: 0,
  };
  const pid = pool.child.pid ?? 0;
  const cpuBefore = processCpuUs(pid) ?? 0;
  const started = performance.now();
  for (let i = 0; i < seconds; i += 1) {
    const tick = sleep(1_000);
    const [stratum, health] = await Promise.all([probeStratum(pool.stratumPort), probeHealth(pool.webUrl)]);
    if (stratum === undefined) probes.stratumMissed += 1;
    else probes.stratum.push(stratum);
    if (health === undefined) probes.healthMissed += 1;
    else probes.health.push(health);
    probes.fdsMax = Math.max(probes.fdsMax, openFds(pid));
    await tick;
  }
  probes.cpuPercent = ((processCpuUs(pid) ?? 0) - cpuBefore) / 10 / (performance.now() - started);
  return probes;
}

function startFlooder(request: FloodRequest): { child: ChildProcess; last: () => FloodCounts | undefined } {
  const script = fileURLToPath(new URL('./edge-http-flood.ts', import.meta.url));
  const child = fork(script, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let last: FloodCounts | undefined;
  child.on('message', (counts: FloodCounts) => (last = counts));
  child.send(request);
  return { child, last: () => last };
}

async function stopFlooders(flooders: ReturnType<typeof startFlooder>[]): Promise<FloodCounts> {
  const sum: FloodCounts = {
    type: 'counts',
    open: 0,
    peakOpen: 0,
    attempted: 0,
    refused: 0,
    cut: 0,
    failed: 0,
  };
  for (const flooder of flooders) {
    const exited = new Promise((resolve) => flooder.child.once('exit', resolve));
    const final = new Promise<FloodCounts>((resolve) => flooder.child.once('message', resolve));
    flooder.child.send({ type: 'stop' });
    const counts = (await Promise.race([final, sleep(5_000).then(() => flooder.last())])) ?? sum;
    await Promise.race([exited, sleep(5_000)]);
    if (flooder.child.exitCode === null) flooder.child.kill('SIGKILL');
    for (const key of ['open', 'peakOpen', 'attempted', 'refused', 'cut', 'failed'] as const)
      sum[key] += counts[key];
  }
  return sum;
}

function printProbes(report: Report, name: string, probes: Probes, seconds: number): void {
  const line = (what: string, samples: number[], missed: number) => {
    const sorted = Float64Array.from(samples).sort();
    report.line(
      `    ${what}: answered ${samples.length} of ${seconds} probes (missed ${missed}); latency p50 ${ms(percentile(sorted, 50))}, max ${ms(percentile(sorted, 100))}`,
    );
  };
  report.line(`  ${name}`);
  line('Stratum subscribe+authorize', probes.stratum, probes.stratumMissed);
  line('/api/health', probes.health, probes.healthMissed);
  report.line(
    `    pool's open file descriptors: at most ${int(probes.fdsMax)}; pool CPU ${fixed(probes.cpuPercent, 0)} % of a core`,
  );
}

async function floodPhase(
  report: Report,
  pool: PoolProcess,
  name: string,
  addresses: string[],
  options: Options,
): Promise<Probes> {
  const children = 2;
  const flooders = Array.from({ length: children }, () =>
    startFlooder({
      type: 'start',
      port: Number(new URL(pool.webUrl).port),
      addresses,
      connections: Math.ceil(options.connections / children),
      perSecond: Math.ceil(options.perSecond / children),
    }),
  );
  const before = await poolRefusals(pool.webUrl);
  // Ramp: the attacker reaches its target (or the pool's caps) before the probes start.
  await sleep(Math.ceil(options.connections / options.perSecond) * 1_000 + 1_000);
  const probes = await probe(pool, options.seconds);
  const counts = await stopFlooders(flooders);
  report.line(
    `  ${name}: attacker aimed at ${int(options.connections)} open connections from ${addresses.length} address(es), at most ${int(options.perSecond)} new/s`,
  );
  report.line(
    `    attacker's view: attempted ${int(counts.attempted)}; connected and not yet closed at most ${int(counts.peakOpen)} at once (the kernel's accept queue included); ` +
      `closed without an answer (refused) ${int(counts.refused)}; ` +
      `cut at the header deadline (408) ${int(counts.cut)}; connect failed ${int(counts.failed)}`,
  );
  await sleep(1_000);
  const after = await poolRefusals(pool.webUrl);
  report.line(
    before && after
      ? `    the pool's count (/metrics): refused at accept over http.maxConnections ${int(after.connections - before.connections)}, over http.maxConnectionsPerAddress ${int(after.address - before.address)}; ` +
          `held connections closed to make room at the cap ${int(after.evicted - before.evicted)}`
      : `    the pool's count (/metrics): not readable`,
  );
  printProbes(report, 'while flooded', probes, options.seconds);
  return probes;
}

/** The pool's own refusal counters (manjam_http_connections_refused_total), read over loopback. */
async function poolRefusals(
  url: string,
): Promise<{ connections: number; address: number; evicted: number } | undefined> {
  try {
    const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
    const read = (cap: string) =>
      Number(
        new RegExp(`manjam_http_connections_refused_total\\{cap="${cap}"\\} (\\d+)`).exec(text)?.[1] ?? NaN,
      );
    const evicted = Number(/manjam_http_connections_evicted_total (\d+)/.exec(text)?.[1] ?? NaN);
    return { connections: read('connections'), address: read('address'), evicted };
  } catch {
    return undefined;
  }
}

function budgetLine(output: string): string {
  const line = output.split('\n').find((l) => l.includes('file descriptors:'));
  if (!line) return 'not logged';
  const { budget } = JSON.parse(line) as {
    budget: {
      limit: number;
      reserve: number;
      http: { maxConnections: number; maxConnectionsPerAddress: number };
      stratum: { maxConnectionsPerPort: number };
    };
  };
  return `limit ${int(budget.limit)}, reserve ${int(budget.reserve)}, HTTP ${int(budget.http.maxConnections)} (per address ${int(budget.http.maxConnectionsPerAddress)}), Stratum ${int(budget.stratum.maxConnectionsPerPort)} per port`;
}

export async function runEdgeHttp(report: Report, argv: string[]): Promise<void> {
  const options = parseOptions(argv);
  const dataDir = await mkdtemp(join(tmpdir(), 'manjam-edge-http-'));
  const limits = readFileSync('/proc/self/limits', 'utf8').match(/^Max open files\s+(\S+)\s+(\S+)/m);
  report.line(`# Edge drill: http (held HTTP connections), ${new Date().toISOString()}, load ${load()}`);
  report.line(
    `  open-files limit of each process here: soft ${limits?.[1] ?? '?'}, hard ${limits?.[2] ?? '?'}`,
  );
  const vardiff = { start: 3e-10, min: 3e-10, max: 3e-10, retargetSeconds: 86_400 };
  const pool = await startPoolProcess(
    'all',
    {
      dataDir,
      log: { level: 'info', pretty: false },
      http: { host: '127.0.0.1', port: 0, webDist: '' },
      chains: { LTC: { enabled: false }, XMR: { enabled: false }, KAS: { enabled: false } },
      stratum: { host: '127.0.0.1', ports: [{ port: 0, coin: 'BTC', vardiff }] },
    },
    300_000,
  );
  try {
    report.line(
      `  pool: manjam start --role all (BTC dev chain, embedded database), pid ${pool.child.pid ?? 0}`,
    );
    report.line(`  the pool's budget (its start-up log): ${budgetLine(pool.output())}`);
    printProbes(report, 'quiet (no attacker)', await probe(pool, 5), 5);
    const one = await floodPhase(report, pool, 'one address (127.0.0.2)', ['127.0.0.2'], options);
    await sleep(6_000); // the pool's header deadline clears what the attacker left
    const many = Array.from({ length: options.addresses }, (_, i) => `127.0.1.${i + 1}`);
    const spread = await floodPhase(
      report,
      pool,
      `${options.addresses} addresses (127.0.1.x)`,
      many,
      options,
    );
    const answers = (p: Probes) => p.stratumMissed === 0 && p.healthMissed === 0;
    report.line(`  target (one address): Stratum and /api/health both answer: ${verdict(answers(one))}`);
    report.line(
      `  many addresses: Stratum answers ${verdict(spread.stratumMissed === 0)}; /api/health answered ${spread.health.length} of ${options.seconds} ` +
        `(a probe waits behind the attacker's new connections in the kernel's accept queue; a per-source rate limit in the firewall or proxy is the guard, docs/OPERATIONS.md)`,
    );
    report.line(`  (${fixed(options.seconds, 0)} s of probes per phase)`);
  } finally {
    pool.child.kill('SIGTERM');
    await Promise.race([pool.exited, sleep(30_000)]);
    if (pool.child.exitCode === null) pool.child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
}
