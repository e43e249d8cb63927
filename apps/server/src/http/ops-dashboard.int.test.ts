// The operator's Grafana dashboard and Prometheus alert rules (docs/ops/) against a running pool:
// a whole `manjam start --role all` process on the BTC dev chain and PostgreSQL, scraped at
// /metrics. Every metric a panel or a rule names must be one the pool serves. The pool also runs
// a Stratum V2 port: a V2 miner's channel shows on /api/health and /metrics.
import { mkdtempSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schnorr } from '@noble/curves/secp256k1.js';
import { healthSchema } from '@manjam/contract';
import { decodeAuthoritySecretKey } from '@manjam/protocol/sv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL, openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { type DevChain } from '../coins/bitcoin/devchain/index.js';
import { startBtcTestChain } from '../../test/support/devchain/snapshot.js';
import { AUTHORITY_KEY_FILE } from '../coins/bitcoin/stratum-v2/authority.js';
import { Sv2TestClient } from '../../test/support/coins/bitcoin/stratum-v2/client.js';
import { freePort } from '../devchain/child.js';
import { testLogger } from '../../test/support/coins/bitcoin/stratum/harness.js';
import {
  processConfig,
  schemaUrl,
  startPoolProcess,
  type PoolProcess,
} from '../../test/support/pool-processes.js';

const OPS = new URL('../../../../docs/ops/', import.meta.url);
const METRIC = /\bmanjam_[a-z0-9_]+/g;
const HISTOGRAM_PART = /_(bucket|sum|count)$/;

interface Dashboard {
  panels: { title: string; targets: { expr: string }[] }[];
}

const dashboard = JSON.parse(readFileSync(new URL('grafana-dashboard.json', OPS), 'utf8')) as Dashboard;
const rules = readFileSync(new URL('prometheus-alerts.yml', OPS), 'utf8');

/** The metric names a text names, histogram parts folded into their histogram. */
function metricsNamed(text: string): string[] {
  return [...new Set([...text.matchAll(METRIC)].map((m) => m[0]))].sort();
}

function served(scrape: string, name: string): boolean {
  if (scrape.includes(`# TYPE ${name} `)) return true;
  const base = name.replace(HISTOGRAM_PART, '');
  return base !== name && scrape.includes(`# TYPE ${base} histogram`);
}

describe('the ops dashboard and alert rules against a running pool', () => {
  let dev: DevChain;
  let database: TestDatabase;
  let pool: PoolProcess;
  let scrape = '';
  let dataDir = '';
  let v2Port = 0;

  beforeAll(async () => {
    dev = await startBtcTestChain({ logger: testLogger });
    database = await openTestDatabase('postgres');
    dataDir = mkdtempSync(join(tmpdir(), 'manjam-ops-'));
    v2Port = await freePort();
    const base = processConfig({
      databaseUrl: schemaUrl(TEST_DATABASE_URL, database.schema ?? ''),
      node: dev,
      difficulty: 3e-10,
      dataDir,
    });
    const stratum = base.stratum as { ports: Record<string, unknown>[] };
    const config = {
      ...base,
      stratum: {
        ...stratum,
        ports: [...stratum.ports, { ...stratum.ports[0], port: v2Port, coin: 'BTC', protocol: 'v2' }],
      },
    };
    pool = await startPoolProcess('all', config);
    const res = await fetch(`${pool.webUrl}/metrics`);
    expect(res.status).toBe(200);
    scrape = await res.text();
  }, 300_000);

  afterAll(async () => {
    pool?.child.kill('SIGTERM');
    await pool?.exited;
    await database?.drop();
    await dev?.stop();
  });

  it('has a query on every panel of the dashboard', () => {
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets) expect(target.expr, panel.title).toMatch(METRIC);
    }
  });

  it('serves every metric the dashboard names', () => {
    const named = metricsNamed(dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)).join('\n'));
    expect(named.length).toBeGreaterThanOrEqual(10);
    expect(named.filter((name) => !served(scrape, name))).toEqual([]);
  });

  it('serves every metric the alert rules name, and each rule has an expression and a runbook', () => {
    const named = metricsNamed(rules);
    expect(named.length).toBeGreaterThanOrEqual(6);
    expect(named.filter((name) => !served(scrape, name))).toEqual([]);
    const alerts = rules.split(/\n\s+- alert: /).slice(1);
    expect(alerts.length).toBeGreaterThanOrEqual(6);
    for (const alert of alerts) {
      expect(alert, alert.split('\n')[0]).toMatch(/\n\s+expr: \S/);
      expect(alert, alert.split('\n')[0]).toMatch(/\n\s+runbook: '/);
    }
  });

  it('shows the figures the runbook says to watch: work up, unstored shares, payout runs', () => {
    expect(scrape).toMatch(/^manjam_chain_up\{coin="BTC"\} 1$/m);
    expect(scrape).toMatch(/^manjam_shares_unstored \d+$/m);
    expect(scrape).toContain('# TYPE manjam_payout_runs gauge');
    expect(scrape).toContain('# TYPE manjam_accounting_credited_behind_seconds gauge');
  });

  it('counts a Stratum V2 miner and its channel on /api/health and /metrics', async () => {
    const secret = decodeAuthoritySecretKey(await readFile(join(dataDir, AUTHORITY_KEY_FILE), 'utf8'));
    const client = await Sv2TestClient.connect(v2Port, schnorr.getPublicKey(secret as Uint8Array));
    try {
      expect((await client.setup()).type).toBe('SetupConnectionSuccess');
      const opened = await client.open('extended', `${dev.poolAddress}.opsv2`);
      expect(opened.ok).toBe(true);
      const health = healthSchema.parse(await (await fetch(`${pool.webUrl}/api/health`)).json());
      expect(health.stratum?.v2).toEqual({ connections: 1, channels: 1 });
      expect(health.stratum?.connections).toBeGreaterThanOrEqual(1);
      const metrics = await (await fetch(`${pool.webUrl}/metrics`)).text();
      expect(metrics).toMatch(/^manjam_stratum_v2_channels 1$/m);
      expect(metrics).toMatch(/^manjam_stratum_v2_connections 1$/m);
    } finally {
      client.close();
    }
  });
});
