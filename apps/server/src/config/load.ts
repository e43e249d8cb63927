import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { CHAIN_ENV } from './families/index.js';
import { configSchema, type Config } from './schema.js';
import type { EnvKeys, EnvType } from './section.js';
import { ConfigError, isPlainObject } from './core.js';

/**
 * Environment variables that override the file. Each maps to one key path. The chain sections'
 * variables (MANJAM_<COIN>_*) are their families' (config/families/<family>.ts).
 */
const ENV_KEYS: EnvKeys = {
  DATABASE_URL: { path: ['databaseUrl'], type: 'string' },
  MANJAM_DATA_DIR: { path: ['dataDir'], type: 'string' },
  MANJAM_PUBLIC_HOST: { path: ['publicHost'], type: 'string' },
  MANJAM_HTTP_HOST: { path: ['http', 'host'], type: 'string' },
  MANJAM_HTTP_PORT: { path: ['http', 'port'], type: 'number' },
  MANJAM_WEB_DIST: { path: ['http', 'webDist'], type: 'string' },
  MANJAM_METRICS_TOKEN: { path: ['http', 'metricsToken'], type: 'string' },
  MANJAM_HTTP_MAX_CONNECTIONS: { path: ['http', 'maxConnections'], type: 'number' },
  MANJAM_HTTP_MAX_CONNECTIONS_PER_ADDRESS: { path: ['http', 'maxConnectionsPerAddress'], type: 'number' },
  MANJAM_HTTP_API_TOKEN_REQUESTS_PER_MINUTE: {
    path: ['http', 'apiTokens', 'requestsPerMinute'],
    type: 'number',
  },
  MANJAM_HTTP_HEADERS_TIMEOUT_SECONDS: { path: ['http', 'headersTimeoutSeconds'], type: 'number' },
  MANJAM_HTTP_REQUEST_TIMEOUT_SECONDS: { path: ['http', 'requestTimeoutSeconds'], type: 'number' },
  MANJAM_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: { path: ['http', 'keepAliveTimeoutSeconds'], type: 'number' },
  MANJAM_LOG_LEVEL: { path: ['log', 'level'], type: 'string' },
  MANJAM_LOG_PRETTY: { path: ['log', 'pretty'], type: 'boolean' },
  MANJAM_STRATUM_HOST: { path: ['stratum', 'host'], type: 'string' },
  MANJAM_STRATUM_PORTS: { path: ['stratum', 'ports'], type: 'json' },
  MANJAM_STRATUM_MAX_CONNECTIONS_PER_PORT: { path: ['stratum', 'maxConnectionsPerPort'], type: 'number' },
  MANJAM_STRATUM_INSTANCE_ID: { path: ['stratum', 'instanceId'], type: 'number' },
  MANJAM_STRATUM_JOURNAL_FSYNC_MS: { path: ['stratum', 'journalFsyncMs'], type: 'number' },
  MANJAM_STRATUM_STATS_FLUSH_SECONDS: { path: ['stratum', 'statsFlushSeconds'], type: 'number' },
  MANJAM_STRATUM_POW_QUEUE_PER_CONNECTION: { path: ['stratum', 'powQueue', 'perConnection'], type: 'number' },
  MANJAM_STRATUM_V2_AUTHORITY_SECRET_KEY: { path: ['stratum', 'v2', 'authoritySecretKey'], type: 'string' },
  MANJAM_STRATUM_POW_QUEUE_TOTAL: { path: ['stratum', 'powQueue', 'total'], type: 'number' },
  ...CHAIN_ENV,
  MANJAM_NATS_URL: { path: ['distributed', 'natsUrl'], type: 'string' },
  MANJAM_REGION: { path: ['distributed', 'region'], type: 'string' },
  MANJAM_NATS_DOMAIN: { path: ['distributed', 'domain'], type: 'string' },
  MANJAM_NATS_LEAF_DOMAINS: { path: ['distributed', 'leafDomains'], type: 'json' },
  MANJAM_JOBS_FROM_CORE: { path: ['distributed', 'jobsFromCore'], type: 'boolean' },
  MANJAM_AUTH_SECRET: { path: ['auth', 'secret'], type: 'string' },
  MANJAM_AUTH_THROTTLE_PER_ADDRESS: { path: ['auth', 'throttle', 'perAddress'], type: 'number' },
  MANJAM_AUTH_THROTTLE_PER_ACCOUNT: { path: ['auth', 'throttle', 'perAccount'], type: 'number' },
  MANJAM_AUTH_THROTTLE_MAX_MINUTES: { path: ['auth', 'throttle', 'backoffMaxMinutes'], type: 'number' },
  MANJAM_SMTP_URL: { path: ['smtp', 'url'], type: 'string' },
  MANJAM_SMTP_FROM: { path: ['smtp', 'from'], type: 'string' },
  MANJAM_ALERTS_WEBHOOK_ALLOW_LOOPBACK_HTTP: {
    path: ['alerts', 'webhook', 'allowLoopbackHttp'],
    type: 'boolean',
  },
  MANJAM_OPERATOR_EMAIL: { path: ['operator', 'email'], type: 'string' },
  MANJAM_OPERATOR_CONTACT: { path: ['operator', 'contact'], type: 'string' },
  MANJAM_STUCK_PAYOUT_MINUTES: { path: ['accounting', 'stuckPayoutMinutes'], type: 'number' },
  MANJAM_ACCOUNTING_SLICE_SHARES: { path: ['accounting', 'sliceShares'], type: 'number' },
  MANJAM_ACCOUNTING_SLICE_BLOCKS: { path: ['accounting', 'sliceBlocks'], type: 'number' },
  MANJAM_ACCOUNTING_CYCLE_SECONDS: { path: ['accounting', 'cycleSeconds'], type: 'number' },
  MANJAM_ACCOUNTING_CREDITS_BEHIND_CYCLES: { path: ['accounting', 'creditsBehindCycles'], type: 'number' },
};

export interface LoadOptions {
  /** Explicit config file path (`--config`). */
  file?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Extra values applied last (tests, dev chains). */
  overrides?: Record<string, unknown>;
}

/**
 * A JSON object of settings shaped like the file, from the environment: every setting is reachable
 * by environment (a container or systemd unit needs no file), the named variables above win over it.
 */
const CONFIG_JSON_ENV = 'MANJAM_CONFIG_JSON';

export function loadConfig(options: LoadOptions = {}): Config {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const raw = readConfigFile(options.file ?? env.MANJAM_CONFIG, cwd);
  const overlay = env[CONFIG_JSON_ENV];
  if (overlay !== undefined && overlay !== '') {
    const value = convert(CONFIG_JSON_ENV, overlay, 'json');
    if (!isPlainObject(value)) throw new ConfigError(`config: ${CONFIG_JSON_ENV} must hold a JSON object`);
    deepMerge(raw, value);
  }
  applyEnv(raw, env);
  if (options.overrides) deepMerge(raw, options.overrides);
  return parseConfig(raw);
}

export function parseConfig(raw: unknown): Config {
  const result = configSchema.safeParse(raw);
  if (result.success) return result.data;
  throw new ConfigError(describeIssue(result.error));
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid configuration';
  const key = issue.path.map(String).join('.') || '(root)';
  if (issue.code === 'unrecognized_keys') {
    const where = issue.path.length > 0 ? `${key}.` : '';
    return `config: unknown key ${issue.keys.map((k) => where + k).join(', ')}`;
  }
  return `config: ${key}: ${issue.message}`;
}

function readConfigFile(file: string | undefined, cwd: string): Record<string, unknown> {
  const path = resolve(cwd, file ?? 'manjam.config.json');
  if (!existsSync(path)) {
    if (file) throw new ConfigError(`config: file ${path} does not exist`);
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`config: ${path} is not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`config: ${path} must hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

function applyEnv(target: Record<string, unknown>, env: NodeJS.ProcessEnv): void {
  for (const [name, { path, type }] of Object.entries(ENV_KEYS)) {
    const text = env[name];
    if (text === undefined || text === '') continue;
    setPath(target, path, convert(name, text, type));
  }
}

function convert(name: string, text: string, type: EnvType): unknown {
  switch (type) {
    case 'string':
      return text;
    case 'number': {
      const n = Number(text);
      // Leave the bad text in place: the schema then names the key and says what is wrong.
      return Number.isFinite(n) && text.trim() !== '' ? n : text;
    }
    case 'boolean':
      if (/^(1|true|yes)$/i.test(text)) return true;
      if (/^(0|false|no)$/i.test(text)) return false;
      return text;
    case 'json':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new ConfigError(`config: ${name} is not valid JSON`);
      }
  }
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1] as string] = value;
}

function deepMerge(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (isPlainObject(value) && isPlainObject(current)) deepMerge(current, value);
    else target[key] = value;
  }
}
