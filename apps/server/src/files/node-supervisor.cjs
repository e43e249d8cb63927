'use strict';
// Keeps one litecoind from outliving the pool. Usage:
//   node node-supervisor.cjs <dir-to-remove-on-exit | -> <litecoind binary> [litecoind args...]
// Starts litecoind in the foreground, forwards its stderr, and stops it (SIGTERM, SIGKILL after
// 20 s) when our stdin closes (the parent died or called stop), on SIGTERM/SIGINT, or when the
// parent pid changes. Then removes the given data dir. Exits with litecoind's exit code.
// When litecoind dies on its own (kill -9, a crash), the data dir is kept and the supervisor dies
// the same way (same signal or exit code), so the parent sees how and restarts the pair
// supervisor + litecoind on the same data (see supervisor.ts). The XMR dev chain runs monerod and
// monero-wallet-rpc under it the same way (devchain/monero.ts).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const [removeDir, binary, ...args] = process.argv.slice(2);
if (!binary) {
  process.stderr.write('usage: node-supervisor.cjs <dir|-> <litecoind> [args...]\n');
  process.exit(2);
}

// Our stdio pipes lead to the parent: once it is gone, writes fail with EPIPE. Ignore that
// instead of dying before litecoind is stopped.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);
function say(text) {
  if (!process.stderr.destroyed) process.stderr.write(text);
}

const parentPid = process.ppid;
const name = path.basename(binary);
const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
child.stderr.on('data', (chunk) => say(chunk));
let stopping = false;

function cleanup() {
  if (removeDir === '-' || !removeDir) return;
  try {
    fs.rmSync(removeDir, { recursive: true, force: true });
    // The pair shares a temporary parent dir (with the blocknotify gate file, see child.ts):
    // remove it once both nodes are gone.
    const root = path.dirname(removeDir);
    if (fs.readdirSync(root).every((name) => name === 'blocknotify-open'))
      fs.rmSync(root, { recursive: true, force: true });
  } catch {
    // the other node of the pair still uses the parent dir, or it is already gone
  }
}

function stop(reason) {
  if (stopping) return;
  stopping = true;
  say(`ltc-supervisor: stopping ${name} (${reason})\n`);
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
}

child.on('error', (err) => {
  say(`ltc-supervisor: cannot start ${binary}: ${err.message}\n`);
  cleanup();
  process.exit(127);
});
child.on('exit', (code, signal) => {
  if (!stopping) {
    say(`ltc-supervisor: ${name} died (${signal ? `signal ${signal}` : `exit code ${code}`})\n`);
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  }
  cleanup();
  process.exit(code ?? (signal ? 1 : 0));
});

process.stdin.on('end', () => stop('stdin closed'));
process.stdin.on('error', () => stop('stdin error'));
process.stdin.resume();
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
setInterval(() => {
  if (process.ppid !== parentPid) stop('parent process is gone');
}, 1000).unref();
