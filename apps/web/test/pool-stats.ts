// /api/pool/stats in page tests: rows as the pool sends them, served by a stubbed fetch.
import { vi } from 'vitest';
import type { PoolAlgorithmStats } from '../src/lib/api-types';
import { jsonResponse } from './render';

/** One algorithm row with quiet defaults (regtest, live, nothing mined); a test sets what it looks at. */
export function algorithmStats(
  row: Pick<PoolAlgorithmStats, 'algorithm' | 'coin' | 'port'> & Partial<PoolAlgorithmStats>,
): PoolAlgorithmStats {
  return {
    network: 'regtest',
    live: true,
    tls: false,
    hashrate: 0,
    miners: 0,
    workers: 0,
    networkHeight: null,
    networkDifficulty: null,
    fee: 1,
    payoutInterval: 24,
    scheme: 'pps-plus',
    blocksFound: 0,
    ...row,
  };
}

/** Stubs fetch: these rows at /api/pool/stats, 404 elsewhere (undo with vi.unstubAllGlobals). */
export function servePoolStats(algorithms: PoolAlgorithmStats[]): void {
  const stats = { host: 'pool.test', algorithms };
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) =>
      Promise.resolve(
        url.endsWith('/api/pool/stats')
          ? jsonResponse(stats)
          : jsonResponse({ error: { code: 'not-found', message: 'Not found' } }, 404),
      ),
    ),
  );
}

/** The regtest pool's two live Bitcoin-family ports: a tiny BTC difficulty, Litecoin at 20 M in Core's unit. */
export const REGTEST_BITCOIN_FAMILY: PoolAlgorithmStats[] = [
  algorithmStats({
    algorithm: 'sha256',
    coin: 'BTC',
    port: 3333,
    networkHeight: 120,
    networkDifficulty: 4.656542373906925e-10,
  }),
  algorithmStats({
    algorithm: 'scrypt',
    coin: 'LTC',
    port: 4444,
    networkHeight: 300,
    // The pool's Scrypt unit: 65536 times the 20 M Litecoin Core and explorers show.
    networkDifficulty: 20e6 * 65_536,
  }),
];
