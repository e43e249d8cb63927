import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../index.js';

const load = (env: NodeJS.ProcessEnv) => loadConfig({ env, cwd: tmpdir() });

describe("the Monero family's configuration", () => {
  it('takes every MANJAM_XMR_* variable into chains.XMR and keeps the defaults of the rest', () => {
    const config = load({
      MANJAM_XMR_NETWORK: 'mainnet',
      MANJAM_XMR_DAEMON_URL: 'http://10.0.0.5:18081',
      MANJAM_XMR_WALLET_RPC_URL: 'http://10.0.0.5:18083',
      MANJAM_XMR_POOL_ADDRESS: '4PoolAddress',
      MANJAM_XMR_ZMQ_PUB_URL: 'tcp://10.0.0.5:18084',
      MANJAM_XMR_ENABLED: 'true',
      MANJAM_XMR_RANDOMX_MODE: 'full',
      MANJAM_XMR_RANDOMX_IDLE_RELEASE_SECONDS: '120',
      MANJAM_XMR_NODE_SILENCE_SECONDS: '45',
    });
    expect(config.chains.XMR).toEqual({
      enabled: true,
      network: 'mainnet',
      daemonUrl: 'http://10.0.0.5:18081',
      walletRpcUrl: 'http://10.0.0.5:18083',
      poolAddress: '4PoolAddress',
      zmqPubUrl: 'tcp://10.0.0.5:18084',
      pollIntervalMs: 1_000,
      mempoolRefreshMs: 10_000,
      rpcTimeoutMs: 10_000,
      nodeSilenceSeconds: 45,
      randomxMode: 'full',
      randomxIdleReleaseSeconds: 120,
    });
    expect(config.chains.BTC).toEqual(load({}).chains.BTC);
  });

  it('opens XMR on 1111 with a difficulty counted in hashes when no port is configured', () => {
    expect(load({}).stratum.ports.filter((p) => p.coin === 'XMR')).toEqual([
      {
        port: 1111,
        coin: 'XMR',
        scheme: 'pps-plus',
        protocol: 'v1',
        vardiff: {
          start: 1_000,
          min: 100,
          max: 1e12,
          targetSeconds: 15,
          retargetSeconds: 90,
          variancePercent: 30,
        },
      },
    ]);
  });

  it('names the variable’s key when its value is refused', () => {
    expect(() => load({ MANJAM_XMR_DAEMON_URL: 'ftp://10.0.0.5:18081' })).toThrow(
      /^config: chains\.XMR\.daemonUrl: /,
    );
    expect(() => load({ MANJAM_XMR_ENABLED: 'maybe' })).toThrow(
      'config: chains.XMR.enabled: Invalid input: expected boolean, received string',
    );
  });
});
