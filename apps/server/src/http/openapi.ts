import { errorBodySchema } from '@manjam/contract';
import { z } from 'zod';
import { tokenReadable } from './api-token-access.js';
import type { AnyRoute } from './route.js';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' });

function parameters(schema: z.ZodType | undefined, where: 'query' | 'path'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}

const errorResponse = {
  description: 'Error',
  content: { 'application/json': { schema: toSchema(errorBodySchema, 'output') } },
};

/**
 * The routes the public documents list: not those behind a guard (the operator console), which
 * answer everyone else exactly as a path no route has.
 */
const published = (routes: readonly AnyRoute[]): AnyRoute[] => routes.filter((route) => !route.guard);

/** The OpenAPI 3 document, generated from the routes' contract schemas (published routes only). */
export function openApiDocument(routes: readonly AnyRoute[], version: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of published(routes)) {
    const path = route.url.replace(/:([A-Za-z]+)/g, '{$1}');
    const status = String(route.status ?? 200);
    const success =
      route.produces === 'text/csv'
        ? { description: 'CSV file', content: { 'text/csv': { schema: { type: 'string' } } } }
        : route.response
          ? {
              description: 'OK',
              content: { 'application/json': { schema: toSchema(route.response, 'output') } },
            }
          : { description: 'No content' };
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      summary: route.summary,
      tags: [route.tag],
      ...(route.auth === 'user'
        ? { security: tokenReadable(route) ? [{ bearer: [] }, { readOnlyToken: [] }] : [{ bearer: [] }] }
        : {}),
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: toSchema(route.body, 'input') } },
            },
          }
        : {}),
      responses: {
        [route.response || route.produces ? status : '204']: success,
        ...(route.body || route.query || route.params ? { 400: errorResponse } : {}),
        ...(route.auth === 'user' ? { 401: errorResponse } : {}),
        ...(route.params ? { 404: errorResponse } : {}),
        ...(route.rateLimit ? { 429: errorResponse } : {}),
        default: errorResponse,
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Manjam API',
      version,
      description: 'The HTTP API of the Manjam mining pool. Money is a decimal string of integer base units.',
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        readOnlyToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A read-only API token (mj_ro_...) from Settings: GET of the routes that list it, its own per-minute limit (429 with Retry-After); 403 read-only-token elsewhere',
        },
      },
    },
    paths,
  };
}

const authLabel = (r: AnyRoute): string => {
  if (r.auth === 'user') return tokenReadable(r) ? 'Bearer token or read-only API token' : 'Bearer token';
  return r.auth === 'optional' ? 'optional' : 'public';
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain HTML page listing every published route (no scripts, no external assets). */
export function docsPage(routes: readonly AnyRoute[]): string {
  const rows = published(routes)
    .map(
      (r) =>
        `<tr><td><code>${r.method}</code></td><td><code>${escapeHtml(r.url)}</code></td><td>${authLabel(r)}</td><td>${escapeHtml(r.summary)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Manjam API</title><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Manjam API</h1>
<p>Machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3). Errors are always
<code>{"error":{"code","message","fields"?}}</code>; send <code>Accept-Language: ar</code> for Arabic messages.
Live updates: WebSocket <code>/api/live?token=…</code>. Metrics: <code>/metrics</code> (bearer token <code>http.metricsToken</code>; without one, this host only).</p>
<table><thead><tr><th>Method</th><th>Path</th><th>Auth</th><th>What it does</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`;
}
