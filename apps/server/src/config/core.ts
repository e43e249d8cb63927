// The configuration's parts that need no zod: its constants, the connection budget, its error and
// the redacted view. A process that never validates a configuration itself (the Stratum role, whose
// configuration is read apart: config/apart.ts) imports these without loading zod or the schemas.
export * from './constants.js';
export { connectionPlan, readOpenFilesLimit, type ConnectionPlan, type OpenFilesLimit } from './fd-budget.js';
export type { Config, StratumPortConfig } from './schema.js';

/** A configuration problem: one clear line naming the key and what is wrong. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Secrets never printed: any key whose last segment matches. */
const SECRET_KEY = /password|secret|apikey|key$|token/i;

/**
 * The effective configuration with every secret replaced, for the start-up log and the operator
 * console: values of secret-named keys, and the password of any `scheme://user:password@` URL
 * (database, NATS, SMTP, node RPC).
 */
export function redactConfig(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => redactConfig(item));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactConfig(v, k)]));
  }
  if (typeof value === 'string' && SECRET_KEY.test(key)) return '[redacted]';
  if (typeof value === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(value))
    return value.replace(/:[^:@/,]+@/g, ':[redacted]@');
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
