// The operator's Grafana dashboard and Prometheus alert rules (docs/ops/) against a running pool:
// a whole `manjam start --role all` process on the BTC dev chain and PostgreSQL, scraped at
// /metrics. Every metric a panel or a rule names must be one the pool serves.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL, openTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { startBtcDevChain, type DevChain } from '../coins/bitcoin/devchain/index.js';
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

  beforeAll(async () => {
    dev = await startBtcDevChain({ logger: testLogger });
    database = await openTestDatabase('postgres');
    const config = processConfig({
      databaseUrl: schemaUrl(TEST_DATABASE_URL, database.schema ?? ''),
      node: dev,
      difficulty: 3e-10,
    });
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
});
