'use strict';
// Runs a bcoin regtest full node (plus its wallet plugin) in its own process so that its CPU
// use never stalls the pool's event loop. Started by btc.ts with an IPC-free pipe protocol:
//   env MANJAM_BCOIN_API_KEY        RPC password (basic auth, any user)
//   env MANJAM_BCOIN_BLOCKNOTIFY    optional command with %s, run on every new tip (like -blocknotify)
//   env MANJAM_BCOIN_BLOCKNOTIFY_GATE  the command runs only once this file exists (so the
//                                   hundreds of blocks mined at start do not spawn hundreds of processes)
//   env MANJAM_BCOIN_PREFIX         data directory (chain + wallet), so a restarted runner resumes
//                                   them; absent: in memory
//   env MANJAM_BCOIN_REMOVE_PREFIX  "1": remove the prefix when stopping (a temporary chain)
//   env MANJAM_BCOIN_HTTP_PORT / MANJAM_BCOIN_WALLET_PORT  fixed RPC ports (0 or absent: any free port)
// It prints one JSON line {"ready":true,"rpcPort":N,"walletPort":M} on stdout when listening,
// and exits (closing the node) when stdin closes, on SIGTERM/SIGINT, or when its parent is gone.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const bcoin = require('bcoin');

// bcoin's database layer (bdb) passes null range bounds (gt/lt...) to leveldown; leveldown 6.1.1
// (the version pinned because it builds on Node 20) reads them as an empty range, so every
// iteration on disk finds nothing (the wallet cannot even initialise). Drop the null bounds.
const LevelDOWN = require('leveldown');
const leveldownIterator = LevelDOWN.prototype.iterator;
LevelDOWN.prototype.iterator = function iterator(options) {
  const clean = { ...options };
  for (const bound of ['gt', 'gte', 'lt', 'lte']) if (clean[bound] == null) delete clean[bound];
  return leveldownIterator.call(this, clean);
};

// Address strings default to the global network: make it regtest before anything else.
bcoin.set('regtest');

const apiKey = process.env.MANJAM_BCOIN_API_KEY;
const blocknotify = process.env.MANJAM_BCOIN_BLOCKNOTIFY || '';
const blocknotifyGate = process.env.MANJAM_BCOIN_BLOCKNOTIFY_GATE || '';
const prefix = process.env.MANJAM_BCOIN_PREFIX || '';
const removePrefix = process.env.MANJAM_BCOIN_REMOVE_PREFIX === '1';
const httpPort = Number(process.env.MANJAM_BCOIN_HTTP_PORT || 0);
const walletPort = Number(process.env.MANJAM_BCOIN_WALLET_PORT || 0);
if (!apiKey) {
  process.stderr.write('MANJAM_BCOIN_API_KEY is required\n');
  process.exit(2);
}

// Our stdio pipes lead to the parent: once it is gone, writes fail with EPIPE. Ignore that
// instead of dying with an uncaught error before the node is closed.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);

const parentPid = process.ppid;
let node = null;
let closing = false;

async function shutdown(reason, code) {
  if (closing) return;
  closing = true;
  process.stderr.write(`bcoin-runner: stopping (${reason})\n`);
  const hardStop = setTimeout(() => process.exit(code), 5000);
  hardStop.unref();
  try {
    if (node) await node.close();
  } catch (err) {
    process.stderr.write(`bcoin-runner: close failed: ${err && err.message}\n`);
  }
  if (prefix && removePrefix) fs.rmSync(prefix, { recursive: true, force: true });
  process.exit(code);
}

// One notification command at a time; tips that arrive meanwhile collapse into the latest.
let notifying = false;
let pendingHash = null;

function runBlocknotify(hash) {
  if (!blocknotify) return;
  if (blocknotifyGate && !fs.existsSync(blocknotifyGate)) return;
  if (notifying) {
    pendingHash = hash;
    return;
  }
  notifying = true;
  const command = blocknotify.split('%s').join(hash);
  const child = spawn('/bin/sh', ['-c', command], { stdio: 'ignore' });
  const done = () => {
    notifying = false;
    const next = pendingHash;
    pendingHash = null;
    if (next) runBlocknotify(next);
  };
  child.on('error', (err) => {
    process.stderr.write(`bcoin-runner: blocknotify failed: ${err.message}\n`);
    done();
  });
  child.on('exit', done);
}

async function main() {
  node = new bcoin.FullNode({
    network: 'regtest',
    memory: !prefix,
    ...(prefix ? { prefix, walletPrefix: prefix } : {}),
    workers: false,
    listen: false,
    logLevel: 'warning',
    logConsole: false,
    httpHost: '127.0.0.1',
    httpPort,
    apiKey,
    walletHttpHost: '127.0.0.1',
    walletHttpPort: walletPort,
    walletApiKey: apiKey,
    plugins: [bcoin.wallet.plugin],
  });
  node.on('error', (err) => process.stderr.write(`bcoin: ${err && err.message}\n`));
  await node.ensure();
  await node.open();
  await node.connect();
  node.chain.on('tip', (entry) => runBlocknotify(entry.rhash()));
  const wallet = node.require('walletdb');
  // Dev-only helper so mine() can wait until the wallet has processed the blocks it mined:
  // bcoin's wallet follows the chain asynchronously.
  // bcoin's wallet hands a new transaction to the mempool without waiting; make sendmany answer
  // only once the transaction is in the mempool (as Core does), so the next block includes it.
  wallet.client.send = (tx) => node.relay(tx);
  // The height is read under the wallet's tx lock: bcoin moves its tip before it has processed
  // the block's transactions.
  wallet.rpc.add('manjam_walletheight', async () => {
    const unlock = await wallet.wdb.txLock.lock();
    try {
      return wallet.wdb.state.height;
    } finally {
      unlock();
    }
  });
  const ready = { ready: true, rpcPort: node.http.address().port, walletPort: wallet.http.address().port };
  process.stdout.write(JSON.stringify(ready) + '\n');
}

process.stdin.on('end', () => void shutdown('parent closed stdin', 0));
process.stdin.on('error', () => void shutdown('stdin error', 0));
process.stdin.resume();
process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
process.on('SIGINT', () => void shutdown('SIGINT', 0));
setInterval(() => {
  if (process.ppid !== parentPid) void shutdown('parent process is gone', 0);
}, 1000).unref();

main().catch((err) => {
  process.stderr.write(`bcoin-runner: failed to start: ${(err && err.stack) || err}\n`);
  process.exit(1);
});
