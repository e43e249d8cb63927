import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from './data-dir-lock.js';

const fresh = () => join(mkdtempSync(join(tmpdir(), 'manjam-lock-')), 'pglite');

/** A pid that belonged to a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('the embedded database lock', () => {
  it('is written beside the data directory with the holder pid and removed when given back', () => {
    const dir = fresh();
    const unlock = lockDataDir(dir);
    expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    unlock();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('refuses while another live process holds it', () => {
    const dir = fresh();
    // The parent of this test process (the Vitest runner) is alive for the whole test.
    writeFileSync(`${dir}.lock`, String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(`is in use by process ${process.ppid}`);
  });

  it('takes over a lock left by a process that died (kill -9)', () => {
    const dir = fresh();
    writeFileSync(`${dir}.lock`, String(deadPid()));
    const unlock = lockDataDir(dir);
    expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    unlock();
  });
});
