import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));

function manjam(args: string[], env: Record<string, string> = {}, configFile?: unknown) {
  const cwd = mkdtempSync(join(tmpdir(), 'manjam-cli-'));
  if (configFile !== undefined) writeFileSync(join(cwd, 'manjam.config.json'), JSON.stringify(configFile));
  const result = spawnSync(process.execPath, [tsx, cli, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...env },
    timeout: 60_000,
  });
  return { code: result.status, stderr: result.stderr.trim(), stdout: result.stdout.trim() };
}

describe('the manjam command', () => {
  it('stops with exit code 2 and one line naming the key for a wrong type', () => {
    const result = manjam(['start'], { MANJAM_HTTP_PORT: 'eighty' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('config: http.port: Invalid input: expected number, received string');
  });

  it('stops with exit code 2 for an unknown coin in the config file', () => {
    const result = manjam(['start'], {}, { stratum: { ports: [{ port: 5555, coin: 'DOGE', vardiff: { start: 1, min: 1, max: 2 } }] } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('config: stratum.ports.0.coin: Invalid option: expected one of "BTC"|"LTC"');
  });

  it('stops with exit code 2 for a bad URL', () => {
    const result = manjam(['migrate'], { DATABASE_URL: 'mysql://localhost/pool' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^config: databaseUrl: /);
    expect(result.stderr.split('\n')).toHaveLength(1);
  });

  it('stops with exit code 2 for an unknown role', () => {
    const result = manjam(['start', '--role', 'miner']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('manjam: --role must be one of all, stratum, api, accounting');
  });

  it('applies migrations to a fresh embedded database and reports it', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'manjam-migrate-'));
    const result = manjam(['migrate'], { MANJAM_DATA_DIR: dataDir, MANJAM_LOG_PRETTY: 'false' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('migrations applied');
    const again = manjam(['migrate'], { MANJAM_DATA_DIR: dataDir, MANJAM_LOG_PRETTY: 'false' });
    expect(again.stdout).toContain('database is up to date');
  });
});
