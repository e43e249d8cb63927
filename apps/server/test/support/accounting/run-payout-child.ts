// Runs payout-child.ts as its own process (a second accounting process, killed by the
// fault it is given); resolves with the signal that ended it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./payout-child.ts', import.meta.url));

export function runPayoutChild(
  spec: object,
  crash: 'before-send' | 'after-send',
): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, MANJAM_PAYOUT_CHILD: JSON.stringify({ ...spec, crash }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      signal || code === 0 ? resolve(signal) : reject(new Error(`payout child exited ${code}: ${stderr}`)),
    );
  });
}
