// JSON-RPC 2.0 client for monerod and monero-wallet-rpc (POST <url>/json_rpc, named params).
// Errors are the chain's RpcError so callers treat every node alike. Amounts are exact both ways:
// RawJsonNumber params are written verbatim, and the keys named in `bigints` are read as bigint.
import { parseJsonWithBigInts, RpcError, stringifyRpcBody } from '../chain/rpc.js';

interface MoneroRpcBody {
  result?: unknown;
  error?: { code?: number; message?: string } | null;
}

export interface MoneroCallOptions {
  timeoutMs?: number;
  /** Keys whose integer values are read as bigint (amounts in atomic units, up to 2^64). */
  bigints?: readonly string[];
}

export class MoneroRpcClient {
  readonly url: string;
  readonly defaultTimeoutMs: number;
  private nextId = 1;

  /** `url`: the server root, e.g. http://127.0.0.1:18081 (no login: the dev chain runs without one). */
  constructor(url: string, defaultTimeoutMs = 60_000) {
    this.url = url.replace(/\/+$/, '');
    this.defaultTimeoutMs = defaultTimeoutMs;
  }

  async call<T = unknown>(
    method: string,
    params: Record<string, unknown> | unknown[] = {},
    options: MoneroCallOptions = {},
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    let response: Response;
    try {
      response = await fetch(`${this.url}/json_rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stringifyRpcBody({ jsonrpc: '2.0', id: this.nextId++, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      const message = timedOut
        ? `no answer within ${timeoutMs} ms from ${this.url}`
        : `cannot reach ${this.url}`;
      throw new RpcError(timedOut ? 'timeout' : 'transport', method, message, undefined, err);
    }
    const text = await response.text();
    let body: MoneroRpcBody | undefined;
    try {
      body = parseJsonWithBigInts(text, options.bigints ?? []) as MoneroRpcBody;
    } catch {
      body = undefined;
    }
    if (body?.error) {
      const code = typeof body.error.code === 'number' ? body.error.code : undefined;
      throw new RpcError('rpc', method, body.error.message ?? 'unknown node error', code);
    }
    if (response.status !== 200 || body === undefined) {
      throw new RpcError(
        'http',
        method,
        `HTTP ${response.status}: ${text.trim().slice(0, 200)}`,
        response.status,
      );
    }
    return body.result as T;
  }
}
