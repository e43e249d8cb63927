// `npm run regions:demo`: the distributed layout of docs/REGIONS.md on one machine, for a trial.
// It reads its NATS configurations, variables and commands from docs/REGIONS.md itself (so the
// page and the trial cannot drift apart) and applies only the one-host changes that page lists
// under "A trial on one machine": 127.0.0.1 for every host, a port per server, a store directory
// under the demo's directory, one BTC regtest chain (`manjam devchain`) as the core's one coin
// node, the other coins off, and the region taking its jobs from the core.
//
//   npm run regions:demo [-- --dir=DIR] [--database-url=URL] [--port-offset=N] [--difficulty=D]
//
// Ctrl-C (SIGINT) or SIGTERM stops every process it started. Options: --dir (default
// .manjam-run/regions-demo, emptied at each start), --database-url (default: a fresh database
// `manjam_regions_demo` on the local PostgreSQL, started or installed like `npm test` does),
// --port-offset (added to every port, for a host where the doc's ports are taken), --difficulty
// (the fixed share difficulty of the region's port, default 0.001).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { canConnect, ensureNodeModules, ensureSystemPackages, ensureWebBuild, log, ROOT } from './lib.mjs';

const NATS_SERVER = '/usr/sbin/nats-server';
const REGION = 'riyadh';
/** How long one process may take to say it is up (a first start builds the server). */
const START_TIMEOUT_MS = 180_000;
/** A stopping process that has not exited by then is killed (the pool's own stop deadline is 15 s). */
const STOP_TIMEOUT_MS = 20_000;

// ---------------------------------------------------------------- what docs/REGIONS.md says

/** The fenced blocks of a Markdown text. */
function fencedBlocks(markdown) {
  return [...markdown.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

function blockWith(blocks, needle) {
  const block = blocks.find((b) => b.includes(needle));
  if (!block) throw new Error(`docs/REGIONS.md has no code block with "${needle}"`);
  return block;
}

/** `export K=V K2='V 2' \` lines of a shell block as an object; commands as argument lists. */
export function parseShellBlock(block) {
  const joined = block.replace(/\\\n\s*/g, ' ');
  const env = {};
  const commands = [];
  for (const raw of joined.split('\n')) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line.startsWith('export ')) {
      for (const m of line.slice(7).matchAll(/([A-Z_][A-Z0-9_]*)=('[^']*'|\S+)/g))
        env[m[1]] = m[2].startsWith("'") ? m[2].slice(1, -1) : m[2];
    } else if (line.startsWith('npm start -- ')) {
      commands.push(['start', ...line.slice('npm start -- '.length).split(/\s+/)]);
    } else if (line.startsWith('node apps/server/bin/manjam.mjs ')) {
      commands.push(line.slice('node apps/server/bin/manjam.mjs '.length).split(/\s+/));
    }
  }
  return { env, commands };
}

export function readRegionsDoc(path = join(ROOT, 'docs', 'REGIONS.md')) {
  const blocks = fencedBlocks(readFileSync(path, 'utf8'));
  return {
    coreNats: blockWith(blocks, 'server_name: core-1'),
    leafNats: blockWith(blocks, 'server_name: leaf-riyadh'),
    core: parseShellBlock(blockWith(blocks, '--role accounting')),
    region: parseShellBlock(blockWith(blocks, `--region ${REGION}`)),
  };
}

// ---------------------------------------------------------------- the one-host changes

/** The doc's base ports and what each becomes on one host: core-N takes base + N - 1 (+ offset). */
const CLIENT = 4222;
const CLUSTER = 6222;
const LEAFNODE = 7422;
/** The region's leaf client port on a shared host (the doc's example). */
const LEAF_CLIENT = 4322;

export function oneHostPorts(offset) {
  const core = [0, 1, 2].map((i) => ({
    client: CLIENT + i + offset,
    cluster: CLUSTER + i + offset,
    leafnode: LEAFNODE + i + offset,
  }));
  return { core, leafClient: LEAF_CLIENT + offset, api: 8080 + offset, stratum: 3333 + offset };
}

/** core-N's server config from the doc's core-1: its name, 127.0.0.1 ports, routes and store dir. */
export function coreConfig(doc, index, ports, natsDir) {
  const name = `core-${index + 1}`;
  const own = ports.core[index];
  return doc
    .replace('server_name: core-1', `server_name: ${name}`)
    .replace(`0.0.0.0:${CLIENT}`, `127.0.0.1:${own.client}`)
    .replace(`0.0.0.0:${CLUSTER}`, `127.0.0.1:${own.cluster}`)
    .replace(`0.0.0.0:${LEAFNODE}`, `127.0.0.1:${own.leafnode}`)
    .replace(/routes: \[[^\]]*\]/, `routes: [ ${routesOf(ports, index).join(', ')} ]`)
    .replace(/store_dir: \S+\/core-1/, `store_dir: ${join(natsDir, name)}`);
}

/** The routes to the two other core servers (the doc lists the others from each server). */
function routesOf(ports, index) {
  return ports.core.filter((_, i) => i !== index).map((p) => `nats-route://127.0.0.1:${p.cluster}`);
}

export function leafConfig(doc, ports, natsDir) {
  return doc
    .replace(`127.0.0.1:${CLIENT}`, `127.0.0.1:${ports.leafClient}`)
    .replace(
      /nats-leaf:\/\/core-(\d):7422/g,
      (_, n) => `nats-leaf://127.0.0.1:${ports.core[Number(n) - 1].leafnode}`,
    )
    .replace(/store_dir: \S+\/leaf-riyadh/, `store_dir: ${join(natsDir, `leaf-${REGION}`)}`);
}

/**
 * The doc's variables for one host: NATS URLs to the ports above, the demo's database, and the
 * one coin node. A variable naming a coin node (`MANJAM_BTC_...`) or holding a placeholder
 * (`...`) is the doc's example of a real node: the demo's dev chain takes its place.
 */
export function oneHostEnv(env, ports, databaseUrl, chain) {
  const out = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith('MANJAM_BTC_') || value.includes('...')) continue;
    out[key] = value;
  }
  if (out.DATABASE_URL) out.DATABASE_URL = databaseUrl;
  if (out.MANJAM_NATS_URL) {
    out.MANJAM_NATS_URL = out.MANJAM_NATS_URL.includes('core-1')
      ? ports.core.map((p) => `nats://127.0.0.1:${p.client}`).join(',')
      : `nats://127.0.0.1:${ports.leafClient}`;
  }
  if (chain) {
    Object.assign(out, {
      MANJAM_BTC_NETWORK: 'regtest',
      MANJAM_BTC_RPC_URL: chain.rpc,
      MANJAM_BTC_RPC_USER: chain.user,
      MANJAM_BTC_RPC_PASSWORD: chain.password,
      MANJAM_BTC_WALLET_RPC_URL: chain.wallet,
      MANJAM_BTC_WALLET_RPC_USER: chain.user,
      MANJAM_BTC_WALLET_RPC_PASSWORD: chain.password,
      MANJAM_BTC_POOL_ADDRESS: chain.poolAddress,
    });
  }
  return out;
}

/** The coins the trial does not mine (the doc's `MANJAM_<COIN>_ENABLED=false`). */
const OTHER_COINS_OFF = {
  MANJAM_LTC_ENABLED: 'false',
  MANJAM_XMR_ENABLED: 'false',
  MANJAM_KAS_ENABLED: 'false',
};

// ---------------------------------------------------------------- processes

const started = [];

function startProcess(name, command, args, env, logsDir) {
  const logFile = join(logsDir, `${name}.log`);
  const out = createWriteStream(logFile);
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const keep = (chunk) => {
    out.write(chunk);
    if (text.length < 1_000_000) text += chunk.toString('utf8');
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const entry = { name, child, exited, logFile, output: () => text };
  started.push(entry);
  return entry;
}

async function waitFor(entry, check, what) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const match = await check();
    if (match) return match;
    if (entry.child.exitCode !== null || entry.child.signalCode !== null)
      throw new Error(`${entry.name} exited before ${what}; its log: ${entry.logFile}`);
    if (Date.now() > deadline)
      throw new Error(`${entry.name}: no ${what} in ${START_TIMEOUT_MS / 1000} s; log: ${entry.logFile}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const waitForPort = (entry, port) => waitFor(entry, () => canConnect(port), `port ${port}`);
const waitForLine = (entry, pattern) => waitFor(entry, () => entry.output().match(pattern), String(pattern));

/** SIGTERM to every process, newest first (Manjam before NATS before the chain); SIGKILL past the limit. */
async function stopAll() {
  const begun = Date.now();
  for (const group of [
    started.filter((e) => e.name.startsWith('manjam-')),
    started.filter((e) => e.name.startsWith('nats-')),
    started.filter((e) => e.name === 'devchain'),
  ]) {
    await Promise.all(
      group.map(async (entry) => {
        if (entry.child.exitCode !== null || entry.child.signalCode !== null) return;
        entry.child.kill('SIGTERM');
        const timer = setTimeout(() => entry.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await entry.exited;
        clearTimeout(timer);
      }),
    );
  }
  return Date.now() - begun;
}

// ---------------------------------------------------------------- the trial

function demoDatabase(name) {
  const psql = (sql) => spawnSync('su', ['postgres', '-c', `psql -tAc "${sql}"`], { encoding: 'utf8' });
  psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  const created = psql(`CREATE DATABASE ${name}`);
  if (created.status !== 0) throw new Error(`could not create the database ${name}: ${created.stderr}`);
  return `postgres://postgres:postgres@127.0.0.1:5432/${name}`;
}

async function main() {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string', default: join(ROOT, '.manjam-run', 'regions-demo') },
      'database-url': { type: 'string' },
      'port-offset': { type: 'string', default: '0' },
      difficulty: { type: 'string', default: '0.001' },
    },
  });
  const ports = oneHostPorts(Number(values['port-offset']));
  const dir = values.dir;
  rmSync(dir, { recursive: true, force: true });
  const natsDir = join(dir, 'nats');
  const logsDir = join(dir, 'logs');
  mkdirSync(logsDir, { recursive: true });

  await ensureSystemPackages(['nats-server']);
  ensureNodeModules();
  ensureWebBuild();
  let databaseUrl = values['database-url'];
  if (!databaseUrl) {
    const { ensurePostgres } = await import('./ensure-postgres.mjs');
    await ensurePostgres();
    databaseUrl = demoDatabase('manjam_regions_demo');
  }
  const { ensureServerBuild } = await import('./build-server.mjs');
  const entry = await ensureServerBuild(log);
  const doc = readRegionsDoc();

  // The core's three NATS servers and the region's leaf, from the doc's configurations.
  const servers = [0, 1, 2].map((i) => ({
    name: `nats-core-${i + 1}`,
    conf: coreConfig(doc.coreNats, i, ports, natsDir),
    port: ports.core[i].client,
  }));
  servers.push({
    name: `nats-leaf-${REGION}`,
    conf: leafConfig(doc.leafNats, ports, natsDir),
    port: ports.leafClient,
  });
  for (const server of servers) {
    const file = join(dir, `${server.name}.conf`);
    writeFileSync(file, server.conf);
    server.entry = startProcess(server.name, NATS_SERVER, ['-c', file], process.env, logsDir);
  }
  for (const server of servers) await waitForPort(server.entry, server.port);
  log(`NATS: core ${ports.core.map((p) => p.client).join(', ')}, leaf ${REGION} ${ports.leafClient}`);

  // The one coin node every core process names.
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' };
  const devchain = startProcess(
    'devchain',
    process.execPath,
    [entry, 'devchain'],
    { ...base, ...OTHER_COINS_OFF, MANJAM_DATA_DIR: join(dir, 'devchain'), MANJAM_LOG_PRETTY: 'false' },
    logsDir,
  );
  const m = await waitForLine(
    devchain,
    /BTC regtest: rpc (\S+) user=(\S+) password=(\S+) pool address (\S+) wallet (\S+)/,
  );
  const chain = { rpc: m[1], user: m[2], password: m[3], poolAddress: m[4], wallet: m[5] };
  log(`BTC regtest node ${chain.rpc}`);

  // The core: accounting x 2 (lock holder, standby) and the api; then the region.
  const coreEnv = { ...base, ...oneHostEnv(doc.core.env, ports, databaseUrl, chain), ...OTHER_COINS_OFF };
  const regionEnv = {
    ...base,
    ...oneHostEnv(doc.region.env, ports, databaseUrl),
    ...OTHER_COINS_OFF,
    MANJAM_JOBS_FROM_CORE: 'true',
  };
  // The region's one port, at a fixed share difficulty (a trial's miner sees its shares at once).
  const difficulty = Number(values.difficulty);
  const vardiff = {
    vardiff: { start: difficulty, min: difficulty, max: difficulty, retargetSeconds: 86_400 },
  };
  const stratumPorts = JSON.stringify([{ port: ports.stratum, coin: 'BTC', ...vardiff }]);
  const commandOf = (role) => {
    const command = [...doc.core.commands, ...doc.region.commands].find((c) => c.includes(role));
    if (!command) throw new Error(`docs/REGIONS.md has no command for ${role}`);
    return command;
  };
  const manjam = async (name, role, env) => {
    const proc = startProcess(
      `manjam-${name}`,
      process.execPath,
      [entry, ...commandOf(role)],
      { ...env, MANJAM_DATA_DIR: join(dir, name) },
      logsDir,
    );
    await waitForLine(proc, /Manjam is running\./);
    log(`${name} is running (log ${proc.logFile})`);
    return proc;
  };
  await manjam('accounting-1', 'accounting', coreEnv);
  await manjam('accounting-2', 'accounting', coreEnv);
  await manjam('api', 'api', { ...coreEnv, MANJAM_HTTP_PORT: String(ports.api) });
  await manjam(`stratum-${REGION}`, `--region`, { ...regionEnv, MANJAM_STRATUM_PORTS: stratumPorts });

  const ready = {
    web: `http://127.0.0.1:${ports.api}`,
    stratum: `stratum+tcp://127.0.0.1:${ports.stratum}`,
    natsCore: ports.core.map((p) => `nats://127.0.0.1:${p.client}`).join(','),
    natsLeaf: `nats://127.0.0.1:${ports.leafClient}`,
    btcRpc: chain.rpc,
    poolAddress: chain.poolAddress,
    logs: logsDir,
  };
  log(`regions demo ready: ${JSON.stringify(ready)}`);
  log(`mine BTC at ${ready.stratum} (user <regtest address>.<worker>), the web app at ${ready.web};`);
  log(
    `watch it with: MANJAM_NATS_URL=${ready.natsCore} npm run manjam -- regions status; Ctrl-C stops everything`,
  );
}

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping every process of the demo`);
  const ms = await stopAll();
  log(`regions demo stopped in ${(ms / 1000).toFixed(1)} s`);
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

main().catch(async (error) => {
  log(`regions demo failed: ${error.message}`);
  await stopAll();
  process.exit(1);
});
