// The processes of the KAS dev chain, each started the way the other dev chains start theirs:
// kaspad and the kaspawallet daemons run under files/node-supervisor.cjs (stops the node when
// the pool dies) and devchain/supervisor.ts (restarts it on the same data when it dies);
// `kaspawallet create` and kaspaminer are one-shot runs. Every process gets HOME = the chain's
// data dir, where kaspawallet and kaspaminer write their logs (~/.kaspawallet, ~/.kaspaminer).
import { access, constants, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { forwardLines, freePort, spawnManaged, type ManagedChild } from '../../devchain/child.js';
import { startSupervised, type SupervisedChild } from '../../devchain/supervisor.js';
import { NODE_SUPERVISOR as SUPERVISOR } from '../../files/index.js';
import { KaspadClient } from './kaspad-client.js';
import { KaspaWalletClient } from './kaspawallet-client.js';

// From the sources: the devchain folder's wrapper; from the server bundle: its copy beside it.

/** The network of the dev chain: fixed, trivial difficulty (0x207fffff), PoW still checked. */
export const KAS_DEV_NETWORK = 'simnet';
/**
 * kaspaminer's block rate on the dev chain. Unthrottled, it mines many blocks on one template:
 * the DAG grows hundreds of tips wide and the DAA score (the clock of coinbase maturity)
 * advances at about half the block count; at 40 blocks/s each block sees its predecessor.
 */
export const KASPAMINER_BLOCKS_PER_SECOND = 40;

export interface KaspaBinaries {
  kaspad: string;
  kaspawallet: string;
  kaspaminer: string;
}

export interface KaspaProcessContext {
  binaries: KaspaBinaries;
  /** The chain's data dir (HOME of every process). */
  root: string;
  logger: Logger;
}

export async function requireBinaries(binaries: KaspaBinaries): Promise<void> {
  for (const file of [binaries.kaspad, binaries.kaspawallet, binaries.kaspaminer]) {
    try {
      await access(file, constants.X_OK);
    } catch {
      throw new Error(`${file} is missing: run node scripts/kaspad.mjs (it builds kaspad with Go)`);
    }
  }
}

function processEnv(root: string): NodeJS.ProcessEnv {
  return { ...process.env, HOME: root };
}

/** Runs `probe` until it resolves; rejects when the process dies or time runs out. */
async function waitUntil(
  child: ManagedChild,
  name: string,
  timeoutMs: number,
  probe: () => Promise<unknown>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.hasExited()) throw new Error(`${name} exited (${await child.exited}) during startup`);
    try {
      await probe();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${name} not ready within ${timeoutMs} ms: ${String(err)}`);
    }
    await delay(200);
  }
}

function supervise(
  ctx: KaspaProcessContext,
  name: string,
  binary: string,
  args: string[],
  ready: (child: ManagedChild) => Promise<void>,
): Promise<SupervisedChild> {
  const logger = ctx.logger.child({ node: name });
  return startSupervised({
    name: `KAS dev ${name}`,
    logger,
    spawn: () =>
      spawnManaged(process.execPath, [SUPERVISOR, '-', binary, ...args], logger, {
        env: processEnv(ctx.root),
      }),
    ready,
  }).then(({ child }) => child);
}

export interface RunningKaspad {
  child: SupervisedChild;
  client: KaspadClient;
  rpcAddress: string;
  /** host:port of its P2P listener (a peer joins the chain there). */
  p2pAddress: string;
}

/**
 * kaspad on the dev network, alone (no DNS seed, P2P on loopback), with the UTXO index; with
 * `peer`, a second node (data in `name`) that connects to that P2P address and follows its chain.
 */
export async function startKaspad(
  ctx: KaspaProcessContext,
  { name = 'kaspad', peer }: { name?: string; peer?: string } = {},
): Promise<RunningKaspad> {
  const [rpcPort, p2pPort] = await Promise.all([freePort(), freePort()]);
  const rpcAddress = `127.0.0.1:${rpcPort}`;
  const p2pAddress = `127.0.0.1:${p2pPort}`;
  const args = [
    `--${KAS_DEV_NETWORK}`,
    `--appdir=${path.join(ctx.root, name)}`,
    `--rpclisten=${rpcAddress}`,
    `--listen=${p2pAddress}`,
    '--nodnsseed',
    '--utxoindex',
    // A lone node never counts itself synced: accept our blocks anyway.
    '--allow-submit-block-when-not-synced',
    '--loglevel=warn',
    ...(peer ? [`--connect=${peer}`] : []),
  ];
  const client = new KaspadClient({ address: rpcAddress, timeoutMs: 30_000, logger: ctx.logger });
  const child = await supervise(ctx, name, ctx.binaries.kaspad, args, (started) =>
    waitUntil(started, name, 120_000, () => client.call('getInfoRequest', {}, 2_000)),
  );
  return { child, client, rpcAddress, p2pAddress };
}

export interface RunningWallet {
  child: SupervisedChild;
  client: KaspaWalletClient;
  /** host:port of the daemon's gRPC listener. */
  daemonAddress: string;
  keysFile: string;
  password: string;
  /** The wallet's first receive address. */
  address: string;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

/** Runs a one-shot command to its end; rejects on a non-zero exit or past the deadline. */
export async function runOnce(
  ctx: KaspaProcessContext,
  binary: string,
  args: string[],
  timeoutMs: number,
  running?: Set<ManagedChild>,
  done?: { line: RegExp; count: number },
): Promise<void> {
  const child = spawnManaged(binary, args, ctx.logger, { env: processEnv(ctx.root) });
  // kaspaminer prints a line per block: read stdout, or the full pipe stops the process.
  let doneLines = 0;
  forwardLines(child.proc.stdout, (line) => {
    if (done?.line.test(line)) doneLines++;
    ctx.logger.trace({ command: path.basename(binary) }, line);
  });
  const lastWords: string[] = [];
  forwardLines(child.proc.stderr, (line) => lastWords.push(line) > 8 && lastWords.shift());
  running?.add(child);
  const timer = setTimeout(() => void child.stop(2_000), timeoutMs);
  const result = await child.exited;
  clearTimeout(timer);
  running?.delete(child);
  if (result !== 0 && done && doneLines >= done.count) {
    // kaspaminer v0.12.22 sometimes crashes while it shuts down (it logs after closing its
    // logger) once its blocks are in: what it had to do is done.
    ctx.logger.debug({ result, doneLines }, `${path.basename(binary)} crashed after finishing its work`);
    return;
  }
  if (result !== 0) {
    const command = `${path.basename(binary)} ${args.join(' ')}`;
    throw new Error(`${command} ended with ${result}: ${lastWords.join(' | ')}`);
  }
}

/**
 * The kaspawallet daemon of wallet `name` (created on first use under root/wallet-name), served
 * on a free loopback port and connected to `rpcAddress`; resolves once the daemon has synced.
 */
export async function startWalletDaemon(
  ctx: KaspaProcessContext,
  name: string,
  rpcAddress: string,
  password: string,
): Promise<RunningWallet> {
  const dir = path.join(ctx.root, `wallet-${name}`);
  const keysFile = path.join(dir, 'keys.json');
  const network = `--${KAS_DEV_NETWORK}`;
  if (!(await exists(keysFile))) {
    await mkdir(dir, { recursive: true });
    const create = ['create', network, `--keys-file=${keysFile}`, `--password=${password}`, '--yes'];
    await runOnce(ctx, ctx.binaries.kaspawallet, create, 60_000);
  }
  const daemonAddress = `127.0.0.1:${await freePort()}`;
  const args = [
    'start-daemon',
    network,
    `--keys-file=${keysFile}`,
    `--password=${password}`,
    `--rpcserver=${rpcAddress}`,
    `--listen=${daemonAddress}`,
  ];
  const client = new KaspaWalletClient(daemonAddress);
  const child = await supervise(ctx, `kaspawallet ${name}`, ctx.binaries.kaspawallet, args, (started) =>
    // GetBalance answers only once the daemon has scanned its addresses.
    waitUntil(started, `kaspawallet daemon ${name}`, 60_000, () => client.getBalance()),
  );
  const known = await client.showAddresses();
  const address = known[0] ?? (await client.newAddress());
  return { child, client, daemonAddress, keysFile, password, address };
}

/** How long kaspaminer may take for `blocks` blocks at its throttled rate, with room to spare. */
export function minerDeadlineMs(blocks: number): number {
  return Math.ceil((blocks / KASPAMINER_BLOCKS_PER_SECOND) * 3_000) + 30_000;
}

/** kaspaminer mines `blocks` blocks to `address` through kaspad's gRPC and exits. */
export function runMiner(
  ctx: KaspaProcessContext,
  rpcAddress: string,
  address: string,
  blocks: number,
  running?: Set<ManagedChild>,
): Promise<void> {
  const args = [
    `--${KAS_DEV_NETWORK}`,
    `--rpcserver=${rpcAddress}`,
    `--miningaddr=${address}`,
    '--mine-when-not-synced',
    `--numblocks=${blocks}`,
    `--target-blocks-per-second=${KASPAMINER_BLOCKS_PER_SECOND}`,
  ];
  const found = { line: /Found block [0-9a-f]{64}/, count: blocks };
  return runOnce(ctx, ctx.binaries.kaspaminer, args, minerDeadlineMs(blocks), running, found);
}
