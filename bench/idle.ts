// `npm run drill:idle`: what the whole default pool costs while no miner is connected. It starts
// the pool exactly as the README's start command does (scripts/start.mjs: the embedded database,
// every regtest dev chain and its wallet), waits until /api/health says every chain is up, lets
// it settle, then reads the CPU time of every process in that tree over an idle window (default
// 5 minutes) and prints each one's share of a core: the pool, each node, each wallet daemon and
// the supervisors around them. Issue 42's goal: ≤ 1 % of a core each, or a documented reason.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { childPids, freePort } from '../apps/server/src/devchain/child.js';
import { poolProcessEnv } from './lib/pool-env.js';
import { processCpuUs } from './lib/proc-cpu.js';
import { Report, fixed, load } from './lib/report.js';

const START = fileURLToPath(new URL('../scripts/start.mjs', import.meta.url));
const BUILD = fileURLToPath(new URL('../scripts/build-server.mjs', import.meta.url));
const SERVER_ENTRY = fileURLToPath(new URL('../apps/server/dist/src/cli.js', import.meta.url));
const RESULTS = fileURLToPath(new URL('results', import.meta.url));
/** V8 CPU profiles of the pool's threads (CPU.*.cpuprofile in bench/results/, written at exit; read with bench/stratum-profile.ts). */
const PROFILE_FLAGS = ['--cpu-prof', `--cpu-prof-dir=${RESULTS}`];

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    'settle-seconds': { type: 'string', default: '30' },
    'start-timeout-seconds': { type: 'string', default: '900' },
    profile: { type: 'boolean', default: false },
  },
});
const idleSeconds = Number(values.seconds);
const settleSeconds = Number(values['settle-seconds']);
const startTimeoutMs = Number(values['start-timeout-seconds']) * 1000;
const report = new Report(join(RESULTS, `idle-${new Date().toISOString().replace(/[:.]/g, '-')}.txt`));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Builds the server when a source is newer than its bundle, in a process of its own; answers the bundle. */
function buildServer(): string {
  const built = spawnSync(process.execPath, [BUILD], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error(`building the server failed (${built.status})`);
  return SERVER_ENTRY;
}

/** Every process under `root` (itself included), parents before children. */
function tree(root: number): number[] {
  const found = [root];
  for (let i = 0; i < found.length; i++) found.push(...childPids(found[i]!));
  return found;
}

/** A process's name a reader recognises: the binary, and for node the script it runs. */
function describe(pid: number): string {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return `${pid} (gone)`;
  }
  const binary = basename(argv[0] ?? '?');
  if (binary !== 'node') return binary === 'kaspawallet' ? `kaspawallet ${argv[1] ?? ''}`.trim() : binary;
  const script = argv.slice(1).find((arg) => !arg.startsWith('-'));
  const managed = script?.endsWith('node-supervisor.cjs') ? ` -> ${basename(argv[3] ?? '?')}` : '';
  return `node ${script ? basename(script) : ''}${managed}`;
}

interface Health {
  status: string;
  chains: { coin: string; ok: boolean }[];
}

async function health(url: string): Promise<Health | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return (await response.json()) as Health;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  report.line(`# Manjam idle drill, ${new Date().toISOString()}`);
  report.line(
    `machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${load()}, node ${process.version}`,
  );
  report.line(
    `command: npm run drill:idle -- --seconds=${idleSeconds} --settle-seconds=${settleSeconds}${values.profile ? ' --profile' : ''}`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'manjam-idle-'));
  const httpPort = await freePort();
  const env = { MANJAM_DATA_DIR: dataDir, MANJAM_HTTP_PORT: String(httpPort) };
  // Its own process group: one signal stops the pool and everything it started. With --profile
  // the compiled server is started as npm start's script would (same build, same environment),
  // under --cpu-prof, which Node 20 takes only on the command line.
  const command = values.profile ? [...PROFILE_FLAGS, buildServer(), 'start'] : [START];
  const pool = spawn(process.execPath, command, {
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: values.profile ? poolProcessEnv(env) : { ...process.env, ...env },
  });
  const exited = new Promise<number | null>((resolve) => pool.once('exit', (code) => resolve(code)));
  try {
    const url = `http://127.0.0.1:${httpPort}/api/health`;
    const startedAt = Date.now();
    let last: Health | undefined;
    while (!(last?.status === 'ok' && last.chains.length > 0 && last.chains.every((c) => c.ok))) {
      if (Date.now() - startedAt > startTimeoutMs)
        throw new Error(`the pool was not healthy in time: ${JSON.stringify(last)}`);
      if (pool.exitCode !== null)
        throw new Error(`npm start's script exited (${pool.exitCode}) before the pool was healthy`);
      await sleep(1_000);
      last = await health(url);
    }
    report.line(
      `healthy after ${fixed((Date.now() - startedAt) / 1000)} s: chains ${last.chains.map((c) => c.coin).join(', ')}; settling ${settleSeconds} s`,
    );
    await sleep(settleSeconds * 1000);
    const pids = tree(pool.pid!);
    const before = new Map(pids.map((pid) => [pid, processCpuUs(pid)]));
    await sleep(idleSeconds * 1000);
    report.line(`CPU over ${idleSeconds} idle s (no miner connected), % of one core; load ${load()}:`);
    report.line('| process | pid | % of a core | CPU s |');
    report.line('| --- | ---: | ---: | ---: |');
    let total = 0;
    for (const pid of pids) {
      const start = before.get(pid);
      const end = processCpuUs(pid);
      if (start === undefined || end === undefined) {
        report.line(`| ${describe(pid)} | ${pid} | ended during the window | |`);
        continue;
      }
      const seconds = (end - start) / 1e6;
      total += seconds;
      report.line(
        `| ${describe(pid)} | ${pid} | ${fixed((seconds / idleSeconds) * 100, 2)} | ${fixed(seconds, 2)} |`,
      );
    }
    report.line(`| all | | ${fixed((total / idleSeconds) * 100, 2)} | ${fixed(total, 2)} |`);
  } finally {
    if (pool.exitCode === null) process.kill(-pool.pid!, 'SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
  report.line(`load at the end: ${load()}`);
}

await main();
