// Finds (or, as root, installs) Litecoin Core's daemon from the Debian package `litecoind`.
import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import type { Logger } from 'pino';
import { forwardLines } from '../../../devchain/child.js';

/** The real binary (/usr/bin/litecoind is a wrapper that creates ~/.litecoin). */
export const LITECOIND_PATH = '/usr/lib/litecoin/litecoind';
export const LITECOIND_INSTALL_HINT =
  'sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends litecoind' +
  '   (or: sudo node scripts/install-system-deps.mjs litecoind)';

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function run(command: string, args: string[], logger: Logger): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    forwardLines(proc.stdout, (line) => logger.info({ command }, line));
    forwardLines(proc.stderr, (line) => logger.warn({ command }, line));
    proc.on('error', reject);
    proc.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

/**
 * Resolves with the litecoind binary path. Installs the Debian package when it is missing and
 * this process runs as root; otherwise rejects with the exact command to run.
 */
export async function ensureLitecoind(logger: Logger): Promise<string> {
  const override = process.env.MANJAM_LITECOIND;
  if (override) {
    if (await isExecutable(override)) return override;
    throw new Error(`MANJAM_LITECOIND=${override} is not an executable file`);
  }
  if (await isExecutable(LITECOIND_PATH)) return LITECOIND_PATH;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `litecoind is not installed (${LITECOIND_PATH} is missing). Run: ${LITECOIND_INSTALL_HINT}`,
    );
  }
  logger.info('litecoind is missing: installing the Debian package litecoind');
  await run('apt-get', ['update'], logger);
  await run('apt-get', ['install', '-y', '--no-install-recommends', 'litecoind'], logger);
  if (await isExecutable(LITECOIND_PATH)) return LITECOIND_PATH;
  throw new Error(`apt-get installed litecoind but ${LITECOIND_PATH} is still missing`);
}
