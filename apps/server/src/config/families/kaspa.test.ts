import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../index.js';

const load = (env: NodeJS.ProcessEnv) => loadConfig({ env, cwd: tmpdir() });

describe("the Kaspa family's configuration", () => {
  it('takes every MANJAM_KAS_* variable and MANJAM_KASPA_BIN_DIR into chains.KAS and keeps the defaults of the rest', () => {
    const config = load({
      MANJAM_KAS_NETWORK: 'testnet',
      MANJAM_KAS_RPC_ADDRESS: '10.0.0.7:16210',
      MANJAM_KAS_RPC_BACKUP_ADDRESSES: '["10.0.0.8:16210","10.0.0.9:16210"]',
      MANJAM_KAS_NODE_SILENCE_SECONDS: '20',
      MANJAM_KAS_POOL_ADDRESS: 'kaspatest:poolwallet',
      MANJAM_KAS_WALLET_DAEMON_ADDRESS: '127.0.0.1:8082',
      MANJAM_KAS_WALLET_PASSWORD: 'wallet-pass',
      MANJAM_KAS_ENABLED: '0',
      MANJAM_KASPA_BIN_DIR: '/opt/kaspa/bin',
    });
    expect(config.chains.KAS).toEqual({
      enabled: false,
      network: 'testnet',
      rpcAddress: '10.0.0.7:16210',
      rpcBackupAddresses: ['10.0.0.8:16210', '10.0.0.9:16210'],
      nodeSilenceSeconds: 20,
      poolAddress: 'kaspatest:poolwallet',
      walletDaemonAddress: '127.0.0.1:8082',
      walletPassword: 'wallet-pass',
      binDir: '/opt/kaspa/bin',
      maxJobsPerSecond: 4,
      jobValidSeconds: 10,
    });
    expect(config.chains.XMR).toEqual(load({}).chains.XMR);
  });

  it('opens KAS on 7777 at difficulty 1 when no port is configured', () => {
    expect(load({}).stratum.ports.filter((p) => p.coin === 'KAS')).toEqual([
      {
        port: 7777,
        coin: 'KAS',
        scheme: 'pps-plus',
        protocol: 'v1',
        vardiff: {
          start: 1,
          min: 0.01,
          max: 1e12,
          targetSeconds: 15,
          retargetSeconds: 90,
          variancePercent: 30,
        },
      },
    ]);
  });

  it('names the variable’s key when its value is refused', () => {
    expect(() => load({ MANJAM_KAS_RPC_ADDRESS: 'kaspad' })).toThrow(
      'config: chains.KAS.rpcAddress: a host:port gRPC address',
    );
    expect(() => load({ MANJAM_KAS_RPC_BACKUP_ADDRESSES: '["kaspad"]' })).toThrow(
      'config: chains.KAS.rpcBackupAddresses.0: a host:port gRPC address',
    );
  });
});
