import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import Fastify, { LogController, type FastifyError, type FastifyInstance } from 'fastify';
import { ServiceError, errorPayload } from '../services/errors.js';
import { connectionPlan } from '../config/index.js';
import {
  bodyRate,
  guardConnections,
  httpServerTimeouts,
  registerConnectionMetrics,
  type ConnectionLimits,
} from './connection-guard.js';
import {
  bodyHasControlCharacter,
  controlCharacterError,
  urlHasControlCharacter,
} from './control-characters.js';
import { registerLive } from './live.js';
import { registerMetrics } from './metrics-routes.js';
import { MetricsRegistry } from './metrics.js';
import { apiTokenAccess } from './api-token-access.js';
import { docsPage, openApiDocument } from './openapi.js';
import { isApiToken } from '../services/monitoring/api-tokens.js';
import { registerRoutes, requestLanguage, type AnyRoute, type RateLimitGroup } from './route.js';
import { ROUTE_MODULES } from './routes/index.js';
import { createServices, type Services } from './services.js';
import type { HttpDeps } from './types.js';
import { registerWeb, sendSpa, wantsSpa, webRoot } from './web.js';

export interface AppOptions {
  /** Requests per window and IP for the rate-limited route groups. */
  rateLimits?: Partial<Record<RateLimitGroup, { max: number; timeWindow: number }>>;
  /** The connection caps (default: this process's plan, config/fd-budget.ts). */
  connections?: ConnectionLimits;
}

const DEFAULT_LIMITS: Record<RateLimitGroup, { max: number; timeWindow: number }> = {
  auth: { max: 20, timeWindow: 60_000 },
  search: { max: 60, timeWindow: 60_000 },
  /** Public watcher-link reads (/api/watch/...), per IP and route: a page polls a few of them. */
  watch: { max: 120, timeWindow: 60_000 },
};

const CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/** Fastify error (parser, limits, plugins) -> the one error shape. */
function toServiceError(error: FastifyError): ServiceError {
  if (error instanceof ServiceError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError(400, 'invalid-json', 'invalidJson');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError(413, 'payload-too-large', 'payloadTooLarge');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ServiceError(415, 'unsupported-media-type', 'unsupportedMediaType');
  }
  if (error instanceof SyntaxError && error.statusCode === 400)
    return new ServiceError(400, 'invalid-json', 'invalidJson');
  if (error.statusCode === 404) return new ServiceError(404, 'route-not-found', 'routeNotFound');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return new ServiceError(error.statusCode, 'validation-failed', 'validationFailed');
  return new ServiceError(500, 'internal', 'internal');
}

export async function buildApp(
  deps: HttpDeps,
  options: AppOptions = {},
): Promise<FastifyInstance & { services: Services; routes: readonly AnyRoute[] }> {
  const { config } = deps;
  const timeouts = httpServerTimeouts(config.http);
  const app = Fastify({
    loggerInstance: deps.logger.child({ part: 'http' }),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.http.bodyLimitBytes,
    trustProxy: config.http.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Short deadlines: a client that holds a connection without finishing its request is cut.
    http: timeouts.options,
    requestTimeout: timeouts.options.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
  }) as unknown as FastifyInstance;
  const guard = guardConnections(
    app.server,
    options.connections ?? connectionPlan(config).http,
    deps.logger.child({ part: 'http' }),
    bodyRate(config.http),
  );
  // JSON only: a text/plain body is refused with 415 rather than parsed as a string.
  app.removeContentTypeParser('text/plain');
  const services = createServices(deps);
  const metrics = new MetricsRegistry();
  app.addHook('onClose', () => services.close());

  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new ServiceError(429, 'rate-limited', 'rateLimited', undefined, {
        'retry-after': String(Math.ceil(context.ttl / 1000)),
      }),
  });
  await app.register(websocket, { options: { maxPayload: 4_096 } });

  // Every request through Fastify, WebSocket upgrades included: the connection is in use.
  // A control character in the path or query is refused before any route reads it.
  app.addHook('onRequest', (request, _reply, done) => {
    guard.started(request.raw.socket, request.headers.upgrade?.toLowerCase() === 'websocket');
    done(urlHasControlCharacter(request.url) ? controlCharacterError() : undefined);
  });
  // ...and one in any string of a JSON body, once parsed.
  app.addHook('preValidation', (request, _reply, done) => {
    done(bodyHasControlCharacter(request.body) ? controlCharacterError() : undefined);
  });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const serviceError = toServiceError(error);
    if (serviceError.status >= 500) request.log.error({ err: error, url: request.url }, 'request failed');
    for (const [name, value] of Object.entries(serviceError.headers ?? {})) reply.header(name, value);
    return reply.code(serviceError.status).send(errorPayload(serviceError, requestLanguage(request)));
  });

  const root = webRoot(config.http.webDist);
  if (root) await registerWeb(app, root);
  app.setNotFoundHandler((request, reply) => {
    if (root && wantsSpa(request)) return sendSpa(reply);
    return reply
      .code(404)
      .send(
        errorPayload(new ServiceError(404, 'route-not-found', 'routeNotFound'), requestLanguage(request)),
      );
  });

  const routes: AnyRoute[] = ROUTE_MODULES.flatMap((module) => module({ deps, services }));
  const rateLimits = { ...DEFAULT_LIMITS, ...options.rateLimits };
  registerRoutes(app, routes, {
    authenticate: (token, options) => services.auth.authenticate(token, options),
    apiToken: {
      is: isApiToken,
      access: (token, route) => apiTokenAccess(services.apiTokens, token, route),
    },
    rateLimits,
  });
  registerLive(app, services, deps.events, deps.logger, config.http.live);
  registerMetrics(app, metrics, deps, services.pool);
  registerConnectionMetrics(metrics, guard);

  const document = openApiDocument(routes, '0.1.0');
  const docs = docsPage(routes);
  app.get('/api/openapi.json', (_request, reply) => reply.send(document));
  app.get('/api/docs', (_request, reply) => reply.type('text/html; charset=utf-8').send(docs));

  return Object.assign(app, { services, routes });
}
