// Test support: the pool as real `manjam start --role ...` processes (bin/manjam.mjs, one process
// each), configured by a JSON file of their own, on a PostgreSQL schema and a node the test gives.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RpcEndpoint } from '../../src/rpc/json-rpc.js';
import type { CoinId, Role } from '../../src/config/index.js';
import { chainsOffBut } from './chains.js';
import { startWatched, type WatchedProcess } from './processes.js';

const MANJAM_BIN = fileURLToPath(new URL('../../bin/manjam.mjs', import.meta.url));

/** A PostgreSQL URL whose sessions use `schema` (what a test schema needs across processes). */
export function schemaUrl(url: string, schema: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

export interface NodeEndpoints {
  rpc: RpcEndpoint;
  walletRpc: RpcEndpoint;
  poolAddress: string;
}

export interface ProcessConfigOptions {
  databaseUrl: string;
  node: NodeEndpoints;
  /** Share difficulty, frozen (vardiff start = min = max). */
  difficulty: number;
  /** The coin mined (every other coin is disabled). Default BTC. */
  coin?: CoinId;
  instanceId?: number;
  /** Default: a fresh temporary directory. */
  dataDir?: string;
  /** Default 0 (a free port, printed in the banner). */
  stratumPort?: number;
  /** Extra keys of chains.<coin> (e.g. newer settings a drill sets when this build knows them). */
  chain?: Record<string, unknown>;
}

/** Config of one process on a configured node of one coin, Stratum and HTTP on 127.0.0.1. */
export function processConfig(options: ProcessConfigOptions): Record<string, unknown> {
  const { node, difficulty } = options;
  const coin = options.coin ?? 'BTC';
  const vardiff = { start: difficulty, min: difficulty, max: difficulty, retargetSeconds: 86_400 };
  return {
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir ?? mkdtempSync(join(tmpdir(), 'manjam-proc-')),
    log: { level: 'info', pretty: false },
    http: { host: '127.0.0.1', port: 0, webDist: '' },
    chains: {
      ...chainsOffBut(coin),
      [coin]: {
        rpc: node.rpc,
        walletRpc: node.walletRpc,
        poolAddress: node.poolAddress,
        pollIntervalMs: 200,
        ...options.chain,
      },
    },
    stratum: {
      host: '127.0.0.1',
      ports: [{ port: options.stratumPort ?? 0, coin, vardiff }],
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
  /** More command-line options (e.g. ['--region', 'riyadh']). */
  options: string[] = [],
): Promise<PoolProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'manjam-conf-'));
  const file = join(dir, 'manjam.config.json');
  writeFileSync(file, JSON.stringify(config));
  const watched = startWatched(
    process.execPath,
    [MANJAM_BIN, 'start', '--role', role, '--config', file, ...options],
    {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' },
    },
  );
  await watched.waitFor(/Manjam is running\./, timeoutMs);
  const stratum = watched.output().match(/Stratum (?:BTC|LTC)\s+stratum\+tcp:\/\/[^:]+:(\d+)/);
  const web = watched.output().match(/Web app and API:\s+(http:\/\/\S+)/);
  return { ...watched, role, stratumPort: Number(stratum?.[1] ?? 0), webUrl: web?.[1] ?? '' };
}
