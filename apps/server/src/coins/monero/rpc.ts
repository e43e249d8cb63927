// JSON-RPC 2.0 client for monerod and monero-wallet-rpc (POST <url>/json_rpc, named params), and
// monerod's other RPC endpoints (POST <url>/<name>, e.g. /get_transaction_pool, answered with a
// `status`). Errors are the chain's RpcError so callers treat every node alike. Amounts are exact
// both ways: RawJsonNumber params are written verbatim, and the keys named in `bigints` are read
// as bigint.
import { parseJsonWithBigInts, RpcError, stringifyRpcBody } from '../../rpc/json-rpc.js';

interface MoneroRpcBody {
  result?: unknown;
  error?: { code?: number; message?: string } | null;
}

export interface MoneroCallOptions {
  timeoutMs?: number;
  /** Keys whose integer values are read as bigint (amounts in atomic units, up to 2^64). */
  bigints?: readonly string[];
}

/** monerod's `status` of a call that worked (CORE_RPC_STATUS_OK). */
const STATUS_OK = 'OK';

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
    const { status, text, body } = await this.post<MoneroRpcBody>(
      'json_rpc',
      method,
      { jsonrpc: '2.0', id: this.nextId++, method, params },
      options,
    );
    if (body?.error) {
      const code = typeof body.error.code === 'number' ? body.error.code : undefined;
      throw new RpcError('rpc', method, body.error.message ?? 'unknown node error', code);
    }
    if (status !== 200 || body === undefined) throw httpError(method, status, text);
    return body.result as T;
  }

  /**
   * One of monerod's endpoints outside JSON-RPC (`name`: get_transaction_pool, is_key_image_spent,
   * ...): the answer itself, once its `status` is OK (a refusal is the node's word: RpcError 'rpc').
   */
  async callEndpoint<T extends object = Record<string, unknown>>(
    name: string,
    params: Record<string, unknown> = {},
    options: MoneroCallOptions = {},
  ): Promise<T> {
    const { status, text, body } = await this.post<T & { status?: unknown }>(name, name, params, options);
    if (status !== 200 || body === undefined) throw httpError(name, status, text);
    if (body.status !== STATUS_OK)
      throw new RpcError('rpc', name, `monerod answered status ${JSON.stringify(body.status ?? null)}`);
    return body;
  }

  private async post<B>(
    path: string,
    method: string,
    payload: unknown,
    options: MoneroCallOptions,
  ): Promise<{ status: number; text: string; body: B | undefined }> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    let response: Response;
    try {
      response = await fetch(`${this.url}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stringifyRpcBody(payload),
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
    let body: B | undefined;
    try {
      body = parseJsonWithBigInts(text, options.bigints ?? []) as B;
    } catch {
      body = undefined;
    }
    return { status: response.status, text, body };
  }
}

function httpError(method: string, status: number, text: string): RpcError {
  return new RpcError('http', method, `HTTP ${status}: ${text.trim().slice(0, 200)}`, status);
}
