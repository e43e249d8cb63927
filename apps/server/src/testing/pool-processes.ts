// Test support: the pool as real `manjam start --role ...` processes (bin/manjam.mjs, one process
// each), configured by a JSON file of their own, on a PostgreSQL schema and a node the test gives.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RpcEndpoint } from '../chain/rpc.js';
import type { Role } from '../config/index.js';
import { startWatched, type WatchedProcess } from './processes.js';

const MANJAM_BIN = fileURLToPath(new URL('../../bin/manjam.mjs', import.meta.url));

/** A PostgreSQL URL whose sessions use `schema` (what a test schema needs across processes). */
export function schemaUrl(url: string, schema: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

export interface BtcNode {
  rpc: RpcEndpoint;
  walletRpc: RpcEndpoint;
  poolAddress: string;
}

/** Config of one process on a configured BTC node (LTC off), Stratum on a free port, HTTP on a free port. */
export function processConfig(options: {
  databaseUrl: string;
  node: BtcNode;
  difficulty: number;
  instanceId?: number;
}): Record<string, unknown> {
  const { node, difficulty } = options;
  return {
    databaseUrl: options.databaseUrl,
    dataDir: mkdtempSync(join(tmpdir(), 'manjam-proc-')),
    log: { level: 'info', pretty: false },
    http: { host: '127.0.0.1', port: 0, webDist: '' },
    chains: {
      BTC: { rpc: node.rpc, walletRpc: node.walletRpc, poolAddress: node.poolAddress, pollIntervalMs: 200 },
      LTC: { enabled: false },
    },
    stratum: {
      host: '127.0.0.1',
      ports: [
        {
          port: 0,
          coin: 'BTC',
          vardiff: { start: difficulty, min: difficulty, max: difficulty, retargetSeconds: 86_400 },
        },
      ],
      ...(options.instanceId === undefined ? {} : { instanceId: options.instanceId }),
    },
  };
}

export interface PoolProcess extends WatchedProcess {
  role: Role;
  /** The Stratum port from the start-up banner (0 for roles without Stratum). */
  stratumPort: number;
  /** The API's base URL from the banner ('' for roles without it). */
  webUrl: string;
}

/** Starts `manjam start --role <role>` and resolves once its banner is printed. */
export async function startPoolProcess(
  role: Role,
  config: Record<string, unknown>,
  timeoutMs = 120_000,
): Promise<PoolProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'manjam-conf-'));
  const file = join(dir, 'manjam.config.json');
  writeFileSync(file, JSON.stringify(config));
  const watched = startWatched(process.execPath, [MANJAM_BIN, 'start', '--role', role, '--config', file], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' },
  });
  await watched.waitFor(/Manjam is running\./, timeoutMs);
  const stratum = watched.output().match(/Stratum BTC\s+stratum\+tcp:\/\/[^:]+:(\d+)/);
  const web = watched.output().match(/Web app and API:\s+(http:\/\/\S+)/);
  return { ...watched, role, stratumPort: Number(stratum?.[1] ?? 0), webUrl: web?.[1] ?? '' };
}
