import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, redactConfig } from './core.js';
import { loadConfig, parseConfig } from './load.js';

function dirWithConfig(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'manjam-config-'));
  writeFileSync(join(dir, 'manjam.config.json'), JSON.stringify(content));
  return dir;
}

const load = (options: Parameters<typeof loadConfig>[0]) =>
  loadConfig({ env: {}, cwd: tmpdir(), ...options });

describe('configuration', () => {
  it('defaults to the embedded dev profile: PGlite, regtest dev chains, port 8080, Stratum 3333, 4444, 1111 and 7777', () => {
    const config = load({});
    expect(config.databaseUrl).toBeUndefined();
    expect(config.http.port).toBe(8080);
    expect(config.chains.BTC.network).toBe('regtest');
    expect(config.chains.LTC.rpc).toBeUndefined();
    expect(config.stratum.ports.map((p) => [p.coin, p.port])).toEqual([
      ['BTC', 3333],
      ['LTC', 4444],
      ['XMR', 1111],
      ['KAS', 7777],
    ]);
    expect(config.chains.XMR).toMatchObject({ enabled: true, network: 'regtest' });
    expect(config.chains.KAS).toMatchObject({ enabled: true, network: 'regtest', binDir: '.tools/go/bin' });
    expect(config.chains.KAS.rpcAddress).toBeUndefined();
    expect(config.chains.XMR.daemonUrl).toBeUndefined();
    expect(config.accounting.feeBasisPoints).toEqual({
      sha256: 100,
      scrypt: 100,
      kadena: 100,
      kaspa: 90,
      randomx: 100,
    });
  });

  it('lets the file override defaults and the environment override the file', () => {
    const cwd = dirWithConfig({ http: { port: 9000 }, publicHost: 'pool.example' });
    expect(load({ cwd }).http.port).toBe(9000);
    const config = load({
      cwd,
      env: { MANJAM_HTTP_PORT: '9100', DATABASE_URL: 'postgres://u:p@db:5432/manjam' },
    });
    expect(config.http.port).toBe(9100);
    expect(config.publicHost).toBe('pool.example');
    expect(config.databaseUrl).toBe('postgres://u:p@db:5432/manjam');
  });

  it('reads the file named by --config or MANJAM_CONFIG', () => {
    const cwd = dirWithConfig({ http: { port: 9200 } });
    expect(load({ env: { MANJAM_CONFIG: join(cwd, 'manjam.config.json') } }).http.port).toBe(9200);
    expect(load({ file: join(cwd, 'manjam.config.json') }).http.port).toBe(9200);
  });

  it('reaches every setting from the environment: MANJAM_CONFIG_JSON over the file, the named variables over both', () => {
    const cwd = dirWithConfig({ http: { port: 9000 }, chains: { BTC: { pollIntervalMs: 900 } } });
    const config = load({
      cwd,
      env: {
        MANJAM_CONFIG_JSON: JSON.stringify({
          http: { port: 9300 },
          chains: { BTC: { refreshIntervalMs: 20_000 } },
          accounting: { payoutAddressHoldHours: 12 },
        }),
        MANJAM_HTTP_PORT: '9400',
      },
    });
    expect(config.http.port).toBe(9400);
    expect(config.chains.BTC.pollIntervalMs).toBe(900);
    expect(config.chains.BTC.refreshIntervalMs).toBe(20_000);
    expect(config.accounting.payoutAddressHoldHours).toBe(12);
    expect(() => load({ env: { MANJAM_CONFIG_JSON: '[1]' } })).toThrow(
      'config: MANJAM_CONFIG_JSON must hold a JSON object',
    );
    expect(() => load({ env: { MANJAM_CONFIG_JSON: '{' } })).toThrow(
      'config: MANJAM_CONFIG_JSON is not valid JSON',
    );
  });

  it("names a Bitcoin-family chain's wallet RPC and blocknotify port by variable (a region's core runs with no file)", () => {
    const config = load({
      env: {
        MANJAM_BTC_WALLET_RPC_URL: 'http://127.0.0.1:18332',
        MANJAM_BTC_WALLET_RPC_USER: 'wallet',
        MANJAM_BTC_WALLET_RPC_PASSWORD: 'secret',
        MANJAM_LTC_BLOCKNOTIFY_PORT: '19444',
      },
    });
    expect(config.chains.BTC.walletRpc).toEqual({
      url: 'http://127.0.0.1:18332',
      user: 'wallet',
      password: 'secret',
    });
    expect(config.chains.LTC.blocknotifyPort).toBe(19444);
  });

  it('names the key and the problem for a wrong type', () => {
    expect(() => load({ env: { MANJAM_HTTP_PORT: 'eighty' } })).toThrow(
      new ConfigError('config: http.port: Invalid input: expected number, received string'),
    );
  });

  it('points XMR at real nodes from the environment, or turns it off', () => {
    const config = load({
      env: {
        MANJAM_XMR_NETWORK: 'mainnet',
        MANJAM_XMR_DAEMON_URL: 'http://127.0.0.1:18081',
        MANJAM_XMR_WALLET_RPC_URL: 'http://127.0.0.1:18083',
        MANJAM_XMR_ZMQ_PUB_URL: 'tcp://127.0.0.1:18084',
      },
    });
    expect(config.chains.XMR).toMatchObject({
      network: 'mainnet',
      daemonUrl: 'http://127.0.0.1:18081',
      walletRpcUrl: 'http://127.0.0.1:18083',
      zmqPubUrl: 'tcp://127.0.0.1:18084',
      mempoolRefreshMs: 10_000,
    });
    expect(() => load({ env: { MANJAM_XMR_ZMQ_PUB_URL: 'http://127.0.0.1:18084' } })).toThrow(
      /chains\.XMR\.zmqPubUrl/,
    );
    expect(load({ env: { MANJAM_XMR_ENABLED: 'false' } }).chains.XMR.enabled).toBe(false);
    expect(load({}).chains.XMR.randomxMode).toBe('light');
    expect(load({ env: { MANJAM_XMR_RANDOMX_MODE: 'full' } }).chains.XMR.randomxMode).toBe('full');
    expect(() => load({ env: { MANJAM_XMR_RANDOMX_MODE: 'fast' } })).toThrow(/chains\.XMR\.randomxMode/);
    expect(load({}).chains.XMR.randomxIdleReleaseSeconds).toBe(600);
    expect(
      load({ env: { MANJAM_XMR_RANDOMX_IDLE_RELEASE_SECONDS: '30' } }).chains.XMR.randomxIdleReleaseSeconds,
    ).toBe(30);
    expect(() => load({ env: { MANJAM_XMR_RANDOMX_IDLE_RELEASE_SECONDS: '0' } })).toThrow(
      /chains\.XMR\.randomxIdleReleaseSeconds/,
    );
  });

  it('names the key for an unknown coin', () => {
    const cwd = dirWithConfig({
      stratum: { ports: [{ port: 5555, coin: 'DOGE', vardiff: { start: 1, min: 1, max: 2 } }] },
    });
    expect(() => load({ cwd })).toThrow(
      /^config: stratum\.ports\.0\.coin: Invalid option: expected one of "BTC"\|"LTC"\|"XMR"\|"KAS"$/,
    );
    const chains = dirWithConfig({ chains: { DOGE: {} } });
    expect(() => load({ cwd: chains })).toThrow('config: unknown key chains.DOGE');
  });

  it('names the key for a bad URL', () => {
    expect(() => load({ env: { DATABASE_URL: 'not a url' } })).toThrow(/^config: databaseUrl: /);
    expect(() =>
      load({
        env: { MANJAM_BTC_RPC_URL: 'ftp://node', MANJAM_BTC_RPC_USER: 'u', MANJAM_BTC_RPC_PASSWORD: 'p' },
      }),
    ).toThrow(/^config: chains\.BTC\.rpc\.url: /);
  });

  it('reports a config file that is not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'manjam-config-'));
    writeFileSync(join(dir, 'manjam.config.json'), '{ nope');
    expect(() => load({ cwd: dir })).toThrow(/is not valid JSON/);
  });

  it('takes backup node endpoints and the node silence limit from the environment, with no backups and 30 s by default', () => {
    expect(load({}).chains.BTC).toMatchObject({ rpcBackups: [], nodeSilenceSeconds: 30 });
    const backup = { url: 'http://10.0.0.2:9332', user: 'rpc', password: 'backup-secret' };
    const config = load({
      env: { MANJAM_LTC_RPC_BACKUPS: JSON.stringify([backup]), MANJAM_LTC_NODE_SILENCE_SECONDS: '12' },
    });
    expect(config.chains.LTC).toMatchObject({ rpcBackups: [backup], nodeSilenceSeconds: 12 });
    expect(JSON.stringify(redactConfig(config))).not.toContain('backup-secret');
    expect(() => load({ env: { MANJAM_BTC_NODE_SILENCE_SECONDS: '0' } })).toThrow(
      /chains\.BTC\.nodeSilenceSeconds/,
    );
  });

  it('redacts passwords, secrets and database credentials for the start-up log', () => {
    const config = load({
      env: {
        DATABASE_URL: 'postgres://manjam:hunter2@db:5432/pool',
        MANJAM_BTC_RPC_URL: 'http://127.0.0.1:8332',
        MANJAM_BTC_RPC_USER: 'rpc',
        MANJAM_BTC_RPC_PASSWORD: 'topsecret',
        MANJAM_METRICS_TOKEN: 'scrape-token-0123456789',
      },
    });
    expect(config.http.metricsToken).toBe('scrape-token-0123456789');
    const shown = JSON.stringify(redactConfig(config));
    expect(shown).not.toContain('scrape-token');
    expect(shown).not.toContain('hunter2');
    expect(shown).not.toContain('topsecret');
    expect(shown).toContain('[redacted]');
  });

  it('runs on one machine without NATS unless a NATS URL is given; MANJAM_NATS_URL and MANJAM_REGION set the distributed mode', () => {
    const local = load({}).distributed;
    expect(local.natsUrl).toBeUndefined();
    expect(local).toMatchObject({ region: 'default', replicas: 1 });
    const config = load({
      env: {
        MANJAM_NATS_URL: 'nats://core:s3cret@10.0.0.1:4222,nats://10.0.0.2:4222',
        MANJAM_REGION: 'riyadh',
      },
    });
    expect(config.distributed.natsUrl).toBe('nats://core:s3cret@10.0.0.1:4222,nats://10.0.0.2:4222');
    expect(config.distributed.region).toBe('riyadh');
    expect(JSON.stringify(redactConfig(config))).not.toContain('s3cret');
    expect(() => load({ env: { MANJAM_REGION: 'Riyadh.1' } })).toThrow(/^config: distributed\.region: /);
  });

  it('a regional node on its own leaf server names its JetStream domain; the core lists the leaf domains it sources', () => {
    expect(load({}).distributed).toMatchObject({ coreDomain: 'core', leafDomains: [] });
    expect(load({}).distributed.domain).toBeUndefined();
    const region = load({ env: { MANJAM_NATS_URL: 'nats://127.0.0.1:4222', MANJAM_NATS_DOMAIN: 'riyadh' } });
    expect(region.distributed.domain).toBe('riyadh');
    const core = load({ env: { MANJAM_NATS_LEAF_DOMAINS: '["riyadh","dubai","cairo"]' } });
    expect(core.distributed.leafDomains).toEqual(['riyadh', 'dubai', 'cairo']);
    expect(() => load({ env: { MANJAM_NATS_DOMAIN: 'Riyadh' } })).toThrow(/^config: distributed\.domain: /);
  });

  it('stores the share log in 10 s slot rows gathered for a second unless told otherwise, and refuses a slot that does not divide an hour', () => {
    expect(load({}).distributed).toMatchObject({
      shareSlotSeconds: 10,
      consumerGatherMs: 1_000,
      consumerPullMessages: 512,
    });
    expect(parseConfig({ distributed: { shareSlotSeconds: 60 } }).distributed.shareSlotSeconds).toBe(60);
    expect(() => parseConfig({ distributed: { shareSlotSeconds: 7 } })).toThrow(/shareSlotSeconds/);
  });
});
