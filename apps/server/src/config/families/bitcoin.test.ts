import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../index.js';

const load = (env: NodeJS.ProcessEnv) => loadConfig({ env, cwd: tmpdir() });

describe("the Bitcoin family's configuration", () => {
  it.each(['BTC', 'LTC'] as const)(
    'takes every MANJAM_%s_* variable into that coin’s chain section and leaves the other coin at its defaults',
    (coin) => {
      const backup = { url: 'http://10.0.0.3:8332', user: 'backup', password: 'backup-pass' };
      const config = load({
        [`MANJAM_${coin}_NETWORK`]: 'testnet',
        [`MANJAM_${coin}_RPC_URL`]: 'http://10.0.0.2:8332',
        [`MANJAM_${coin}_RPC_USER`]: 'pool',
        [`MANJAM_${coin}_RPC_PASSWORD`]: 'pool-pass',
        [`MANJAM_${coin}_RPC_BACKUPS`]: JSON.stringify([backup]),
        [`MANJAM_${coin}_NODE_SILENCE_SECONDS`]: '45',
        [`MANJAM_${coin}_POOL_ADDRESS`]: 'tb1qpooladdress',
        [`MANJAM_${coin}_ENABLED`]: 'no',
      });
      expect(config.chains[coin]).toEqual({
        enabled: false,
        network: 'testnet',
        rpc: { url: 'http://10.0.0.2:8332', user: 'pool', password: 'pool-pass' },
        rpcBackups: [backup],
        nodeSilenceSeconds: 45,
        poolAddress: 'tb1qpooladdress',
        pollIntervalMs: 500,
        refreshIntervalMs: 30_000,
        blocknotifyPort: 0,
        rpcTimeoutMs: 10_000,
      });
      const other = coin === 'BTC' ? 'LTC' : 'BTC';
      expect(config.chains[other]).toEqual(load({}).chains[other]);
      expect(config.chains[other]).toMatchObject({ enabled: true, network: 'regtest', rpcBackups: [] });
    },
  );

  it('opens BTC on 3333 and LTC on 4444 with their own starting difficulty when no port is configured', () => {
    expect(load({}).stratum.ports.filter((p) => p.coin === 'BTC' || p.coin === 'LTC')).toEqual([
      {
        port: 3333,
        coin: 'BTC',
        scheme: 'pps-plus',
        protocol: 'v1',
        vardiff: {
          start: 0.001,
          min: 0.0001,
          max: 1e12,
          targetSeconds: 15,
          retargetSeconds: 90,
          variancePercent: 30,
        },
      },
      {
        port: 4444,
        coin: 'LTC',
        scheme: 'pps-plus',
        protocol: 'v1',
        vardiff: {
          start: 0.01,
          min: 0.001,
          max: 1e12,
          targetSeconds: 15,
          retargetSeconds: 90,
          variancePercent: 30,
        },
      },
    ]);
  });

  it('names the variable’s key when its value is refused', () => {
    expect(() => load({ MANJAM_LTC_NETWORK: 'signet' })).toThrow(
      'config: chains.LTC.network: Invalid option: expected one of "mainnet"|"testnet"|"regtest"',
    );
    expect(() => load({ MANJAM_BTC_RPC_BACKUPS: '[{' })).toThrow(
      'config: MANJAM_BTC_RPC_BACKUPS is not valid JSON',
    );
  });
});
