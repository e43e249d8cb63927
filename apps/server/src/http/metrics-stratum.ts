// /metrics of a process without the API (`--role stratum`): a plain node:http listener on
// http.host:port answering GET /metrics alone, with the Stratum counters (the XMR ports' RandomX
// pools included) and the event-loop and GC figures, under the API's access rule
// (metrics-access.ts). No Fastify, no routes, no database reads.
import { createServer, type Server } from 'node:http';
import { figureTotal, type FamilyFigure } from '../coins/family.js';
import { connectionPlan, type Config } from '../config/core.js';
import type { Logger } from '../logger.js';
import { errorPayload, ServiceError } from '../services/errors.js';
import {
  bodyRate,
  guardConnections,
  httpServerTimeouts,
  registerConnectionMetrics,
} from './connection-guard.js';
import { MetricsRegistry, type GaugeSample } from './metrics.js';
import { assertMetricsAccess } from './metrics-access.js';
import { registerProcessMetrics, registerRuntimeMetrics, RuntimeMonitor } from './metrics-runtime.js';
import type { StratumMetrics } from './types.js';

/** The Stratum counters of this process (kept in memory): connections, shares by result, bans, the XMR ports' RandomX pools. */
export function registerStratumMetrics(metrics: MetricsRegistry, stratum: StratumMetrics): void {
  metrics.register('manjam_stratum_connections', 'Open Stratum connections', 'gauge', () =>
    Promise.resolve([{ labels: {}, value: stratum.connections() }]),
  );
  metrics.register(
    'manjam_stratum_shares_total',
    'Shares seen by Stratum since start, by result',
    'counter',
    () =>
      Promise.resolve(
        Object.entries(stratum.sharesByResult()).map(([result, value]) => ({ labels: { result }, value })),
      ),
  );
  const figures = stratum.figures;
  if (figures) {
    const total = (name: string): GaugeSample[] => [{ labels: {}, value: figureTotal(figures(), name) }];
    metrics.register(
      'manjam_stratum_v2_connections',
      'Open Stratum V2 connections (also in manjam_stratum_connections)',
      'gauge',
      () => Promise.resolve(total('manjam_stratum_v2_connections')),
    );
    metrics.register(
      'manjam_stratum_v2_faults_total',
      'Stratum V2 connections closed for what they sent (handshake, bad-frame, bad-message, protocol, timeout)',
      'counter',
      () => Promise.resolve(summedByLabels(figures(), 'manjam_stratum_v2_faults_total')),
    );
    metrics.register('manjam_stratum_v2_channels', 'Open Stratum V2 mining channels', 'gauge', () =>
      Promise.resolve(total('manjam_stratum_v2_channels')),
    );
  }
  const bans = stratum.bans;
  if (bans) {
    metrics.register(
      'manjam_stratum_bans_total',
      'Stratum ban decisions since start: a connection cut, or a whole address banned',
      'counter',
      () => Promise.resolve(Object.entries(bans()).map(([scope, value]) => ({ labels: { scope }, value }))),
    );
  }
  const unstored = stratum.sharesUnstored;
  if (unstored) {
    metrics.register(
      'manjam_shares_unstored',
      'Accepted shares not yet where accounting reads them: the database, or on a regional node the core share stream (the runbook: sharesAwaitingCore)',
      'gauge',
      () => Promise.resolve([{ labels: {}, value: unstored() }]),
    );
  }
  if (figures) registerRandomXMetrics(metrics, figures);
}

/** The samples named `name`, those with the same labels summed, in the order first reported. */
function summedByLabels(figures: readonly FamilyFigure[], name: string): GaugeSample[] {
  const byLabels = new Map<string, GaugeSample>();
  for (const figure of figures) {
    if (figure.name !== name) continue;
    const key = JSON.stringify(figure.labels);
    const sample = byLabels.get(key);
    if (sample) sample.value += figure.value;
    else byLabels.set(key, { labels: figure.labels, value: figure.value });
  }
  return [...byLabels.values()];
}

/** The RandomX lines (the Monero family's figures, one sample per XMR port): name, help, type. */
const RANDOMX_METRICS: readonly [string, string, 'gauge' | 'counter'][] = [
  [
    'manjam_randomx_hash_queue',
    'XMR share checks asked of RandomX and not answered yet (running, or waiting behind others or a seed being built)',
    'gauge',
  ],
  ['manjam_randomx_hashes_total', 'RandomX hashes done since start', 'counter'],
  [
    'manjam_randomx_seeds',
    'RandomX seeds held (256 MiB cache each; full mode: plus a 2 GiB dataset); light mode: 0 once no XMR miner has been logged in for chains.XMR.randomxIdleReleaseSeconds',
    'gauge',
  ],
  [
    'manjam_randomx_seeds_building',
    'RandomX seeds whose cache (full mode: dataset) is being built now',
    'gauge',
  ],
  ['manjam_randomx_threads', 'RandomX hashing threads running (0 while the caches are released)', 'gauge'],
];

/** The RandomX pools of this process's XMR ports, one sample per port. */
function registerRandomXMetrics(metrics: MetricsRegistry, figures: () => FamilyFigure[]): void {
  for (const [name, help, type] of RANDOMX_METRICS)
    metrics.register(name, help, type, (): Promise<GaugeSample[]> =>
      Promise.resolve(summedByLabels(figures(), name)),
    );
}

export interface MetricsServer {
  url: string;
  stop(): Promise<void>;
}

/** Listens on config.http.host:port for GET /metrics (everything else: 404). */
export async function startMetricsServer(
  config: Config,
  stratum: StratumMetrics,
  logger: Logger,
): Promise<MetricsServer> {
  const metrics = new MetricsRegistry();
  registerStratumMetrics(metrics, stratum);
  const runtime = new RuntimeMonitor();
  registerRuntimeMetrics(metrics, runtime);
  registerProcessMetrics(metrics);

  // The same connection caps and deadlines as the API's listener: it shares the process's descriptors.
  const timeouts = httpServerTimeouts(config.http);
  const server: Server = createServer(timeouts.options, (request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': type, ...headers }).end(body);
    };
    const json = 'application/json; charset=utf-8';
    if (path !== '/metrics')
      return send(404, json, JSON.stringify({ error: { code: 'not-found', message: 'Not found' } }));
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return send(
        405,
        json,
        JSON.stringify({ error: { code: 'method-not-allowed', message: 'Method not allowed' } }),
        {
          allow: 'GET, HEAD',
        },
      );
    try {
      assertMetricsAccess(request, config);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return send(error.status, json, JSON.stringify(errorPayload(error, 'en')), error.headers);
    }
    metrics.render().then(
      (text) => send(200, 'text/plain; version=0.0.4; charset=utf-8', text),
      () => send(500, json, JSON.stringify({ error: { code: 'internal', message: 'metrics failed' } })),
    );
  });
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  const guard = guardConnections(
    server,
    connectionPlan(config).http,
    logger.child({ part: 'metrics' }),
    bodyRate(config.http),
  );
  registerConnectionMetrics(metrics, guard);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.http.port, config.http.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.http.port;
  const host = config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host;
  return {
    url: `http://${host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        runtime.stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
