// The pool as composed by main.ts shows each Stratum port with its own payout scheme (on main
// the scheme of a coin's first port was shown for every port of that coin), and /api/health
// reports an open operator alert as degraded without taking the pool out of service. Its API runs
// apart from Stratum: a configured V2 port is listed with the authority key the Stratum process
// loads from the shared dataDir and logs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { poolPortsSchema } from '@manjam/contract';
import { loadAuthority } from './coins/bitcoin/stratum-v2/authority.js';
import { parseConfig } from './config/index.js';
import { OperatorAlertsRepository } from './db/repositories/operator-alerts.js';
import { startPool, type RunningPool } from './main.js';

let pool: RunningPool;
let url = '';
let authorityKey = '';

beforeAll(async () => {
  const vardiff = {
    start: 0.001,
    min: 0.0001,
    max: 1e12,
    targetSeconds: 15,
    retargetSeconds: 90,
    variancePercent: 30,
  };
  const config = parseConfig({
    dataDir: mkdtempSync(join(tmpdir(), 'manjam-ports-')),
    http: { host: '127.0.0.1', port: 0, webDist: '' },
    stratum: {
      ports: [
        { port: 3333, coin: 'BTC', scheme: 'pps-plus', vardiff },
        { port: 3334, coin: 'BTC', scheme: 'pplns', vardiff },
        { port: 3335, coin: 'BTC', scheme: 'solo', vardiff },
        { port: 4444, coin: 'LTC', scheme: 'solo', vardiff },
        { port: 34254, coin: 'BTC', scheme: 'pps-plus', protocol: 'v2', vardiff },
      ],
    },
  });
  // What the Stratum process does at its first V2 port: load (here: generate) the key, log its text.
  authorityKey = (await loadAuthority(config)).publicKeyText;
  pool = await startPool({ config, role: 'api', logger: pino({ level: 'silent' }) });
  url = pool.http?.url ?? '';
}, 120_000);

afterAll(async () => {
  await pool?.stop();
});

it('lists every Stratum port with its own payout scheme', async () => {
  const stats = (await (await fetch(`${url}/api/pool/stats`)).json()) as {
    algorithms: { coin?: string; port: number; scheme?: string; live: boolean }[];
  };
  const live = stats.algorithms
    .filter((a) => a.live)
    .map((a) => ({ coin: a.coin, port: a.port, scheme: a.scheme }));
  expect(live).toEqual([
    { coin: 'BTC', port: 3333, scheme: 'pps-plus' },
    { coin: 'BTC', port: 3334, scheme: 'pplns' },
    { coin: 'BTC', port: 3335, scheme: 'solo' },
    { coin: 'LTC', port: 4444, scheme: 'solo' },
  ]);
});

it('reports an open operator alert on /api/health as degraded (200), and ok again once cleared', async () => {
  const alerts = new OperatorAlertsRepository(pool.db);
  await alerts.raise({
    key: 'payout-stuck:BTC:9',
    kind: 'payout-stuck',
    coin: 'BTC',
    message: "BTC payout run 9 has been 'sent' for 95 min",
  });
  const degraded = await fetch(`${url}/api/health`);
  expect(degraded.status).toBe(200);
  const body = (await degraded.json()) as {
    status: string;
    alerts: { kind: string; coin: string; message: string }[];
  };
  expect(body.status).toBe('degraded');
  expect(body.alerts).toMatchObject([
    { kind: 'payout-stuck', coin: 'BTC', message: "BTC payout run 9 has been 'sent' for 95 min" },
  ]);
  const metrics = await (await fetch(`${url}/metrics`)).text();
  expect(metrics).toContain('manjam_operator_alerts{kind="payout-stuck",coin="BTC"} 1');
  await alerts.clear(['payout-stuck:BTC:9']);
  expect(((await (await fetch(`${url}/api/health`)).json()) as { status: string }).status).toBe('ok');
});

it('lists the Stratum V2 port after the V1 rows with the authority key the Stratum process logged', async () => {
  const body = poolPortsSchema.parse(await (await fetch(`${url}/api/pool/ports`)).json());
  expect(body.ports.find((p) => p.algorithm === 'sha256')).toEqual({
    algorithm: 'sha256',
    name: 'SHA-256',
    port: 3333,
    live: true,
  });
  expect(body.ports.filter((p) => p.protocol === 'v2')).toEqual([
    { algorithm: 'sha256', name: 'SHA-256', port: 34254, live: true, protocol: 'v2', authorityKey },
  ]);
  expect(authorityKey).toMatch(/^[1-9A-HJ-NP-Za-km-z]{40,60}$/);
});
