import { buildApp, type AppOptions } from './app.js';
import type { HttpDeps, HttpService } from './types.js';

export type { HealthReport, HttpDeps, HttpService, PoolInfo, StratumMetrics } from './types.js';
export { buildApp, type AppOptions } from './app.js';
export { defineRoute, type AnyRoute } from './route.js';
export type { RouteModule, RouteContext } from './routes/index.js';

/** Builds the app and listens on config.http.host:port. */
export async function startHttp(deps: HttpDeps, options: AppOptions = {}): Promise<HttpService> {
  const app = await buildApp(deps, options);
  await app.listen({ host: deps.config.http.host, port: deps.config.http.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : deps.config.http.port;
  const host = deps.config.http.host.includes(':') ? `[${deps.config.http.host}]` : deps.config.http.host;
  return {
    url: `http://${host}:${port}`,
    app,
    routes: app.routes,
    stop: () => app.close(),
  };
}
