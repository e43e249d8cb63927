// scripts/kaspad.mjs on machines that cannot build kaspad: the KAS chain is off with a clear
// word, and nothing throws. The installer runs from a copy of scripts/ in an empty directory
// (its project root), so no kaspad is installed there.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPTS = fileURLToPath(new URL('../../../../../scripts/', import.meta.url));
const root = mkdtempSync(path.join(tmpdir(), 'manjam-kaspad-installer-'));
mkdirSync(path.join(root, 'scripts'));
for (const file of ['kaspad.mjs', 'lib.mjs', 'pool-env.json']) {
  copyFileSync(path.join(SCRIPTS, file), path.join(root, 'scripts', file));
}
afterAll(() => rmSync(root, { recursive: true, force: true }));

function runInstaller(env: NodeJS.ProcessEnv): { status: number | null; output: string } {
  const env_ = { ...process.env, MANJAM_KASPA_BIN_DIR: '', ...env };
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'kaspad.mjs')], {
    env: env_,
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the kaspad installer (scripts/kaspad.mjs)', () => {
  it('says the KAS chain is off because Go was not found, and exits 1 instead of crashing', () => {
    const { status, output } = runInstaller({ MANJAM_GO: path.join(root, 'no-such-go') });
    expect(status).toBe(1);
    expect(output).toContain('KAS chain off: Go toolchain not found');
    expect(output).not.toMatch(/Error:|at .*kaspad\.mjs/);
  });

  it('resolves with the reason, never a rejection, when called from the start and test scripts', async () => {
    process.env.MANJAM_GO = path.join(root, 'no-such-go');
    try {
      const installer = (await import(
        path.join(root, 'scripts', 'kaspad.mjs')
      )) as typeof import('../../../../../scripts/kaspad.mjs');
      const result = await installer.ensureKaspad({ quiet: true });
      expect(result).toEqual({
        ok: false,
        reason: expect.stringContaining('KAS chain off: Go toolchain not found') as unknown,
      });
    } finally {
      delete process.env.MANJAM_GO;
    }
  });

  it('names the missing tools when MANJAM_KASPA_BIN_DIR points at a directory without them', () => {
    const { status, output } = runInstaller({ MANJAM_KASPA_BIN_DIR: root });
    expect(status).toBe(1);
    expect(output).toContain(
      `KAS chain off: MANJAM_KASPA_BIN_DIR=${root} lacks kaspad, kaspawallet, kaspaminer`,
    );
  });
});
