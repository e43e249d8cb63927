import { isDeepStrictEqual } from 'node:util';
import { errorBodySchema } from '@manjam/contract';
import type { z } from 'zod';
import type { AnyRoute, Method } from './route.js';

/**
 * Checks an HTTP answer against the contract of the route that gave it: a 2xx JSON body must
 * parse with the route's `response` schema and carry no field the schema does not declare (zod
 * strips unknown keys, so the parsed body must equal the body sent); an error body must match
 * `errorBodySchema`; any other body (e.g. /api/health's 503 report) its route's schema. Used by every API test through test-support's `request`, so a drift between
 * server and contract fails a test. Answers a description of the drift, or null.
 */
export function contractDrift(
  routes: readonly AnyRoute[],
  answer: { method: string; path: string; status: number; contentType: string | null; json: unknown },
): string | null {
  if (!answer.contentType?.includes('application/json') || answer.json === undefined) return null;
  const pathname = answer.path.split('?')[0] ?? answer.path;
  const isError =
    answer.status >= 400 && typeof answer.json === 'object' && answer.json !== null && 'error' in answer.json;
  if (isError) return drift(errorBodySchema, answer.json, `${answer.method} ${pathname} ${answer.status}`);
  const route = routes.find(
    (candidate) => candidate.method === (answer.method as Method) && urlPattern(candidate.url).test(pathname),
  );
  if (!route?.response) return null;
  // A route's own non-error answer (e.g. /api/health's 503 report) follows its response schema too.
  return drift(route.response, answer.json, `${answer.method} ${route.url} ${answer.status}`);
}

function drift(schema: z.ZodType, json: unknown, where: string): string | null {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`,
    );
    return `${where}: the body does not match its contract schema: ${issues.join('; ')}`;
  }
  if (!isDeepStrictEqual(parsed.data, json))
    return `${where}: the body has fields or values its contract schema does not declare`;
  return null;
}

const patterns = new Map<string, RegExp>();
function urlPattern(url: string): RegExp {
  let pattern = patterns.get(url);
  if (!pattern) {
    const source = url
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    pattern = new RegExp(`^${source}$`);
    patterns.set(url, pattern);
  }
  return pattern;
}
