/* eslint-disable @typescript-eslint/no-unsafe-member-access -- JSON bodies are read field by field */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { parseConfig, type Config } from '../../src/config/index.js';
import type { Database } from '../../src/db/index.js';
import { PoolEvents } from '../../src/events.js';
import { contractDrift } from '../../src/http/contract-check.js';
import { startHttp, type AppOptions } from '../../src/http/index.js';
import type { Services } from '../../src/http/services.js';
import type { HealthReport, HttpDeps, HttpService, StratumMetrics } from '../../src/http/types.js';

/**
 * Test support for the API: a real server on 127.0.0.1:0 and a small fetch client. Every JSON
 * answer is checked against its route's contract schema (contract-check.ts): a drift throws.
 */
export interface TestApi {
  url: string;
  http: HttpService;
  events: PoolEvents;
  config: Config;
  clock: { now: number };
  health: { report: HealthReport };
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** Forgets cached aggregates of a user, as if their cache time had run out (after inserting fixtures). */
  forget(userId: number): void;
  /** Registers and signs in a fresh user; answers their token and id. */
  signUp(
    name?: string,
    extra?: Record<string, unknown>,
  ): Promise<{ token: string; id: number; username: string; email: string; password: string }>;
  close(): Promise<void>;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is (no JSON encoding). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test convenience: JSON bodies are asserted field by field
  json: any;
}

let counter = 0;

export async function startTestApi(
  db: Database,
  options: {
    config?: Record<string, unknown>;
    app?: AppOptions;
    metrics?: StratumMetrics;
    accountingCounters?: () => Record<string, number>;
    /** A Stratum ban list, as where Stratum runs in the API's process (the operator console's bans). */
    bans?: HttpDeps['bans'];
    /** How the outbound policy resolves host names (the test machine resolves no public name). */
    resolve?: HttpDeps['resolve'];
    /** The live ports, as the process's Stratum (or the config, without one) gives them; BTC 3333 and LTC 4444 unless given. */
    ports?: HttpDeps['pool']['ports'];
  } = {},
): Promise<TestApi> {
  const config = parseConfig({
    dataDir: mkdtempSync(join(tmpdir(), 'manjam-api-')),
    publicHost: 'pool.test',
    http: { host: '127.0.0.1', port: 0, webDist: '' },
    auth: { secret: 'test-secret-test-secret-test-secret-0123' },
    ...options.config,
  });
  const events = new PoolEvents();
  const clock = { now: Date.now() };
  const health = {
    report: {
      ok: true,
      database: { ok: true, kind: db.kind },
      chains: [{ coin: 'BTC', ok: true, height: 101 }],
      alerts: [],
    } as HealthReport,
  };
  const http = await startHttp(
    {
      config,
      db,
      logger: pino({ level: 'silent' }),
      events,
      health: () => Promise.resolve(health.report),
      pool: {
        host: config.publicHost,
        ports:
          options.ports ??
          (() => [
            { coin: 'BTC', port: 3333, tls: false, scheme: 'pps-plus' },
            { coin: 'LTC', port: 4444, tls: false, scheme: 'pps-plus' },
          ]),
        hashrate: () => null,
      },
      metrics: options.metrics,
      ...(options.accountingCounters ? { accountingCounters: options.accountingCounters } : {}),
      ...(options.bans ? { bans: options.bans } : {}),
      ...(options.resolve ? { resolve: options.resolve } : {}),
      now: () => clock.now,
    },
    {
      rateLimits: { auth: { max: 10_000, timeWindow: 60_000 }, search: { max: 10_000, timeWindow: 60_000 } },
      ...options.app,
    },
  );
  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${http.url}${path}`, { method, headers, body });
    const text = await response.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const drift = contractDrift(http.routes, {
      method,
      path,
      status: response.status,
      contentType: response.headers.get('content-type'),
      json,
    });
    if (drift) throw new Error(drift);
    return { status: response.status, headers: response.headers, text, json };
  };
  return {
    url: http.url,
    http,
    events,
    config,
    clock,
    health,
    request,
    async signUp(name, extra = {}) {
      counter += 1;
      const username = name ?? `miner${counter}_${Math.floor(clock.now % 100_000)}`;
      const email = `${username}@example.com`;
      const password = 'correct horse battery';
      const reg = await request('POST', '/api/auth/register', {
        body: { username, email, password, preferredCoin: 'BTC', ...extra },
      });
      if (reg.status !== 202) throw new Error(`register failed: ${reg.status} ${reg.text}`);
      const login = await request('POST', '/api/auth/login', { body: { email, password } });
      if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
      return {
        token: login.json.token as string,
        id: login.json.user.id as number,
        username,
        email,
        password,
      };
    },
    forget(userId) {
      const services = (http.app as typeof http.app & { services: Services }).services;
      services.workers.forget(userId);
      services.dashboard.forget(userId);
    },
    close: () => http.stop(),
  };
}
