// Test support: Bitcoin-family dev chains started from a copy of one prepared chain. A fresh
// chain mines its first blocks at every start (bcoin 432 blocks to segwit, litecoind 120, or 432
// through MWEB's activation): 3-10 s of CPU that each of ~40 test files paid. The first file that
// needs a chain prepares it once (started, mined, stopped cleanly) under node_modules/.cache, and
// every chain after it starts on its own copy: the same height, the same pool wallet, its own
// ports, processes and data. A chain started on a copy is what `dataDir` gives any start: the
// product's path, not a test switch.
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBtcDevChain, startLtcDevChain } from '../../../src/coins/bitcoin/devchain/index.js';
import type { DevChain, DevChainOptions } from '../../../src/devchain/types.js';
import { startOnCopy } from '../chain-copies.js';

const SNAPSHOTS = fileURLToPath(
  new URL('../../../../../node_modules/.cache/manjam-chains/', import.meta.url),
);
/**
 * A prepared chain older than this is made again: a node whose tip is a day old believes it is
 * still downloading the chain and refuses work (bcoin and litecoind both answer getblocktemplate
 * so), and the tests' chains must not start there.
 */
const MAX_SNAPSHOT_AGE_MS = 6 * 3_600_000;

type Start = (opts: DevChainOptions) => Promise<DevChain>;

const fresh = (path: string): boolean =>
  existsSync(path) && Date.now() - statSync(path).mtimeMs < MAX_SNAPSHOT_AGE_MS;

/** The prepared chain's directory for `key`, made by `start` when absent or too old. */
async function prepared(key: string, start: Start, opts: DevChainOptions): Promise<string> {
  const path = join(SNAPSHOTS, key);
  if (fresh(path)) return path;
  await mkdir(SNAPSHOTS, { recursive: true });
  // Made in a directory of its own and renamed into place: two files preparing it at once each
  // make one; the second keeps the first's, which another file may be copying already.
  const making = join(SNAPSHOTS, `${key}.${process.pid}.${randomBytes(4).toString('hex')}`);
  const chain = await start({
    logger: opts.logger,
    ...(opts.mweb ? { mweb: opts.mweb } : {}),
    dataDir: making,
  });
  await chain.stop();
  if (fresh(path)) {
    await rm(making, { recursive: true, force: true });
    return path;
  }
  await rm(path, { recursive: true, force: true });
  await rename(making, path);
  return path;
}

/** `start` on a copy of the prepared chain; the copy is removed when the chain stops. */
async function fromSnapshot(key: string, start: Start, opts: DevChainOptions): Promise<DevChain> {
  if (opts.dataDir !== undefined) return start(opts);
  const source = await prepared(key, start, opts);
  const dataDir = await mkdtemp(join(tmpdir(), `manjam-${key}-`));
  await cp(source, dataDir, { recursive: true });
  return startOnCopy(dataDir, (copy) => start({ ...opts, dataDir: copy }));
}

/**
 * Copies the prepared chain of `coin` (made when absent) to `target`: where a whole pool's dev
 * chain keeps its data (`<dataDir>/devchain/<coin>`), so the pool starts on it as after a restart.
 * LTC's is the pair with MWEB activated, as the pool starts it.
 */
export async function copyPreparedChain(
  coin: 'BTC' | 'LTC',
  target: string,
  opts: DevChainOptions,
): Promise<void> {
  const source =
    coin === 'BTC'
      ? await prepared('btc', startBtcDevChain, opts)
      : await prepared('ltc-activate', startLtcDevChain, opts);
  await cp(source, target, { recursive: true });
}

/** A bcoin regtest chain at segwit's activation, as `startBtcDevChain` gives, from a prepared copy. */
export function startBtcTestChain(opts: DevChainOptions): Promise<DevChain> {
  return fromSnapshot('btc', startBtcDevChain, opts);
}

/** A litecoind regtest pair as `startLtcDevChain` gives for `opts.mweb`, from a prepared copy. */
export function startLtcTestChain(opts: DevChainOptions): Promise<DevChain> {
  return fromSnapshot(`ltc-${opts.mweb ?? 'activate'}`, startLtcDevChain, opts);
}
