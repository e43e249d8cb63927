import { PORT_TABLE } from '@manjam/contract';
import { describe, expect, it } from 'vitest';
import { PoolService, type PoolPortsSource } from './pool-service.js';

function service(ports: ReturnType<PoolPortsSource['ports']>): PoolService {
  const source: PoolPortsSource = { host: 'pool.test', ports: () => ports, hashrate: () => null };
  const db = { query: () => Promise.reject(new Error('no database in this test')) };
  return new PoolService(
    db as never,
    {} as never,
    source,
    () => 0,
    () => undefined,
  );
}

describe('the pool port table', () => {
  it('lists the seed port table with only the algorithms it validates live', () => {
    const table = service([
      { coin: 'BTC', port: 3333, tls: false, scheme: 'pps-plus' },
      { coin: 'LTC', port: 4444, tls: false, scheme: 'pps-plus' },
    ]).ports();
    expect(table.ports).toHaveLength(19);
    expect(table.ports.map((row) => row.name)).toEqual(PORT_TABLE.map((row) => row.name));
    expect(table.ports.filter((r) => r.live).map((r) => `${r.name}:${r.port}`)).toEqual([
      'SHA-256:3333',
      'Scrypt:4444',
    ]);
  });

  it('marks a row live only when a Stratum port mines its coin, on the configured port', () => {
    const onlyBtc = service([{ coin: 'BTC', port: 3000, tls: false, scheme: 'pps-plus' }]).ports();
    expect(onlyBtc.ports.filter((r) => r.live)).toEqual([
      { algorithm: 'sha256', name: 'SHA-256', port: 3000, live: true },
    ]);
    expect(onlyBtc.ports.find((r) => r.algorithm === 'scrypt')).toEqual({
      algorithm: 'scrypt',
      name: 'Scrypt',
      port: 4444,
      live: false,
    });
  });

  it('says on every answer that share difficulties stop at the network difficulty and that a block is submitted first', () => {
    const table = service([{ coin: 'BTC', port: 3333, tls: false, scheme: 'pps-plus' }]).ports();
    expect(table.shareDifficulty).toEqual({ capsAtNetworkDifficulty: true, blockFirst: true });
  });
});
