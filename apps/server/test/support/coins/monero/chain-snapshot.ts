// A Monero dev chain at its starting height, made once per machine and copied for each test that
// needs one. A fresh dev chain mines XMR_INITIAL_BLOCKS (100) RandomX blocks to the pool wallet at
// every start: 6-12 s of CPU that each Monero test file paid (18 s under a loaded suite). The run's
// global set-up (test/support/global-setup.ts) starts one chain, stops it cleanly and keeps its
// data dir (monerod's database and the pool wallet) under node_modules/.cache; a test copies it
// into its own data dir, and the dev chain starts on it as it does after a pool restart: the same
// height and wallet, its own ports and processes, and a chain of its own from then on.
import { cpSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import {
  MONEROD_PATH,
  MONERO_WALLET_RPC_PATH,
  startMoneroDevChain,
  type MoneroDevChain,
  type MoneroDevChainOptions,
} from '../../../../src/coins/monero/devchain.js';
import { makeSnapshot, startOnCopy } from '../../chain-copies.js';

const ROOT = fileURLToPath(new URL('../../../../../../', import.meta.url));

/** Named by the installed monerod and wallet: a new Monero package makes a new snapshot. */
function snapshotPath(): string | undefined {
  try {
    const stamp = [MONEROD_PATH, MONERO_WALLET_RPC_PATH]
      .map((file) => {
        const { size, mtimeMs } = statSync(file);
        return `${size.toString(36)}${Math.round(mtimeMs).toString(36)}`;
      })
      .join('-');
    return join(ROOT, 'node_modules', '.cache', `manjam-xmr-chain-${stamp}`);
  } catch {
    return undefined; // Monero is not installed: every test starts its own chain and says why it cannot
  }
}

/** Makes the snapshot when it is missing; resolves with the seconds it took, or 0. */
export async function prepareMoneroSnapshot(): Promise<number> {
  const snapshot = snapshotPath();
  if (snapshot === undefined || existsSync(snapshot)) return 0;
  return makeSnapshot(snapshot, async (dataDir) => {
    const chain = await startMoneroDevChain({ logger: pino({ level: 'warn' }), dataDir });
    await chain.stop();
  });
}

/**
 * Copies the snapshot into `target` (made when absent) and returns it; undefined when there is
 * no snapshot, so the chain mines its first blocks itself as before.
 */
export function moneroChainDataDir(target?: string): string | undefined {
  const snapshot = snapshotPath();
  if (snapshot === undefined || !existsSync(snapshot)) return undefined;
  const dir = target ?? mkdtempSync(join(tmpdir(), 'manjam-xmr-'));
  cpSync(snapshot, dir, { recursive: true });
  return dir;
}

/**
 * `startMoneroDevChain` on a copy of the snapshot when the test wants the usual starting height
 * (no `initialBlocks`, no `dataDir`); the copy is removed when the chain stops.
 */
export async function startMoneroTestChain(opts: MoneroDevChainOptions): Promise<MoneroDevChain> {
  const copy =
    opts.dataDir === undefined && opts.initialBlocks === undefined ? moneroChainDataDir() : undefined;
  if (copy === undefined) return startMoneroDevChain(opts);
  return startOnCopy(copy, (dataDir) => startMoneroDevChain({ ...opts, dataDir }));
}
