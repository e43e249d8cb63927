import type { ErrorCode, Language, MessageKey } from '@manjam/contract';
import { languageFromHeader } from '@manjam/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { SignedIn } from '../services/auth/auth-service.js';
import { notFound, ServiceError, unauthorized, validationError, zodFields } from '../services/errors.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type AuthMode = 'user' | 'public' | 'optional';
export type RateLimitGroup = 'auth' | 'search' | 'watch';

interface Schemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteRequest<B, Q, P, A extends AuthMode> {
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
  auth: A extends 'user' ? SignedIn : SignedIn | null;
  token: A extends 'user' ? string : string | null;
  language: Language;
  ip: string;
  userAgent: string | null;
}

/** A response body already serialized as JSON (served as is, e.g. from a per-snapshot cache). */
export class RawJson {
  constructor(readonly text: string) {}
}

export interface RouteMeta {
  method: Method;
  url: string;
  summary: string;
  tag: string;
  auth: AuthMode;
  rateLimit?: RateLimitGroup;
  /** Success status (default 200; a handler answering undefined gives 204). */
  status?: number;
  /** Response content type (default JSON). */
  produces?: 'application/json' | 'text/csv';
  response?: z.ZodType;
  /**
   * What a path id too large to name a row answers (default 404 `not-found`): the same error as
   * an id in range that names no row of the user's.
   */
  notFound?: { key: MessageKey; code: ErrorCode };
  /**
   * Checked with the signed-in user before anything of the request is read (path, body): throws
   * the refusal (the operator console answers 404 to everyone who is not an operator).
   */
  guard?: (auth: SignedIn | null) => void;
  /**
   * The session and its user are read from the database on every request, never from the
   * session cache: a guard that checks a role (the operator console) sees a revocation at once.
   */
  freshSession?: boolean;
}

export interface AnyRoute extends RouteMeta, Schemas {
  run(
    request: FastifyRequest,
    reply: FastifyReply,
    auth: SignedIn | null,
    token: string | null,
  ): Promise<unknown>;
}

/** Declares a route: schemas first, a typed handler that calls a service. */
export function defineRoute<
  A extends AuthMode,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(
  def: RouteMeta & {
    auth: A;
    body?: B;
    query?: Q;
    params?: P;
    handler: (req: RouteRequest<B, Q, P, A>, reply: FastifyReply) => Promise<unknown>;
  },
): AnyRoute {
  const { handler, ...meta } = def;
  return {
    ...meta,
    async run(request, reply, auth, token) {
      // The path first: an id that names nothing is a 404 whatever the body says.
      const params = parseParams(def, request.params ?? {});
      const req = {
        body: parse(def.body, request.body ?? {}),
        query: parse(def.query, request.query ?? {}),
        params,
        auth,
        token,
        language: requestLanguage(request),
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      } as RouteRequest<B, Q, P, A>;
      return handler(req, reply);
    },
  };
}

/**
 * Path parameters: one past its schema's maximum (an id beyond the database's range) names
 * nothing, so it answers the route's not-found; any other failure (not a number) stays a 400.
 */
function parseParams(route: RouteMeta & Schemas, input: unknown): unknown {
  if (!route.params) return undefined;
  const result = route.params.safeParse(input);
  if (result.success) return result.data;
  if (result.error.issues.every((issue) => issue.code === 'too_big'))
    throw notFound(route.notFound?.key, route.notFound?.code);
  throw validationError(zodFields(result.error));
}

function parse(schema: z.ZodType | undefined, input: unknown): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(zodFields(result.error));
  return result.data;
}

export function requestLanguage(request: FastifyRequest): Language {
  const header: string | string[] | undefined = request.headers['accept-language'];
  return languageFromHeader(typeof header === 'string' ? header : header?.[0]);
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

export interface RouteRegistration {
  authenticate(token: string, options: { fresh: boolean }): Promise<SignedIn | undefined>;
  /**
   * A bearer token that is a read-only API token (mj_ro_...): the account it reads on `route`, or
   * null on a public route; throws the refusal (api-token-access.ts).
   */
  apiToken?: {
    is(token: string): boolean;
    access(token: string, route: RouteMeta): Promise<SignedIn | null>;
  };
  rateLimits: Record<RateLimitGroup, { max: number; timeWindow: number }>;
}

/** Registers routes on Fastify: authentication per the route's mode, rate limit group, status codes. */
export function registerRoutes(
  app: FastifyInstance,
  routes: readonly AnyRoute[],
  reg: RouteRegistration,
): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.url,
      config: route.rateLimit ? { rateLimit: reg.rateLimits[route.rateLimit] } : {},
      handler: async (request, reply) => {
        const token = bearerToken(request);
        let auth: SignedIn | null = null;
        if (token && reg.apiToken?.is(token)) auth = await reg.apiToken.access(token, route);
        else if (token && route.auth !== 'public')
          auth = (await reg.authenticate(token, { fresh: route.freshSession === true })) ?? null;
        if (route.auth === 'user' && !auth) throw unauthorized();
        route.guard?.(auth);
        const result = await route.run(request, reply, auth, token);
        if (reply.sent) return reply;
        if (result === undefined) return reply.code(204).send();
        if (result instanceof RawJson)
          return reply
            .code(route.status ?? 200)
            .type('application/json; charset=utf-8')
            .send(result.text);
        if (route.produces === 'text/csv') reply.type('text/csv; charset=utf-8');
        return reply.code(route.status ?? 200).send(result);
      },
    });
  }
}

export { ServiceError };
