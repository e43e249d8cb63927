// JSON-RPC 1.0 client for coin nodes (Bitcoin Core, Litecoin Core, bcoin) over HTTP basic auth.
// One request per call, a per-call timeout, and errors that say which method failed and why.
import http from 'node:http';

export const RPC_ERROR_KINDS = ['transport', 'timeout', 'rpc', 'http'] as const;
export type RpcErrorKind = (typeof RPC_ERROR_KINDS)[number];

export interface RpcEndpoint {
  url: string;
  user: string;
  password: string;
}

export class RpcError extends Error {
  readonly kind: RpcErrorKind;
  readonly method: string;
  /** The node's JSON-RPC error code (kind 'rpc') or the HTTP status (kind 'http'). */
  readonly code?: number;

  constructor(kind: RpcErrorKind, method: string, message: string, code?: number, cause?: unknown) {
    super(`${method}: ${message}`, cause === undefined ? undefined : { cause });
    this.name = 'RpcError';
    this.kind = kind;
    this.method = method;
    if (code !== undefined) this.code = code;
  }
}

/** A JSON number written verbatim (e.g. an exact decimal coin amount), never through a float. */
export class RawJsonNumber {
  readonly text: string;
  constructor(text: string) {
    if (!/^-?\d+(\.\d+)?$/.test(text)) throw new Error(`not a decimal number: ${text}`);
    this.text = text;
  }
}

const RAW_MARK = '\u0000raw:';

/** JSON.stringify that writes RawJsonNumber values as bare number literals. */
export function stringifyRpcBody(body: unknown): string {
  const json = JSON.stringify(body, (_key, value: unknown) =>
    value instanceof RawJsonNumber ? `${RAW_MARK}${value.text}` : value,
  );
  return json.replace(/"\\u0000raw:(-?\d+(?:\.\d+)?)"/g, '$1');
}

const BIGINT_MARK = '\u0000int:';

/**
 * JSON.parse that reads the integer values of the named keys as bigint, exactly. Wallets answer
 * amounts as JSON integers up to 2^64 (Monero: atomic units), beyond a double's 2^53. The
 * integers are quoted in the text before parsing; a key inside a string value cannot match, as
 * its quotes are escaped there.
 */
export function parseJsonWithBigInts(text: string, keys: readonly string[]): unknown {
  if (keys.length === 0) return JSON.parse(text);
  const names = keys.map((key) => key.replace(/\W/g, '')).join('|');
  const integers = new RegExp(`"(${names})"(\\s*):(\\s*)(-?\\d+)(?=\\s*[,}\\]])`, 'g');
  // The JSON escape \u0000 (never sent by a wallet) marks the quoted integers.
  const quoted = text.replace(integers, '"$1"$2:$3"\\u0000int:$4"');
  return JSON.parse(quoted, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(BIGINT_MARK)
      ? BigInt(value.slice(BIGINT_MARK.length))
      : value,
  );
}

export interface RpcCallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

interface RpcResponseBody {
  result?: unknown;
  error?: { code?: number; message?: string } | null;
}

export class RpcClient {
  readonly endpoint: RpcEndpoint;
  readonly defaultTimeoutMs: number;
  private nextId = 1;
  private readonly authHeader: string;
  private readonly target: URL;
  /** Keep-alive sockets of this client only, so close() can release them (a node's HTTP server
   * waits for idle keep-alive connections before it can shut down). */
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

  constructor(endpoint: RpcEndpoint, defaultTimeoutMs = 30_000) {
    this.endpoint = endpoint;
    this.defaultTimeoutMs = defaultTimeoutMs;
    this.target = new URL(endpoint.url);
    if (this.target.protocol !== 'http:') {
      throw new Error(
        `RPC URL must be http:// (got ${this.target.protocol}) — put TLS in front of the node if needed`,
      );
    }
    this.authHeader = 'Basic ' + Buffer.from(`${endpoint.user}:${endpoint.password}`).toString('base64');
  }

  /** Calls `method` and resolves with its result; rejects with an RpcError. */
  async call<T = unknown>(method: string, params: unknown[] = [], options: RpcCallOptions = {}): Promise<T> {
    const body = stringifyRpcBody({ jsonrpc: '1.0', id: this.nextId++, method, params });
    const { status, text } = await this.send('POST', this.target, method, body, options);
    let parsed: RpcResponseBody | undefined;
    try {
      parsed = JSON.parse(text) as RpcResponseBody;
    } catch {
      parsed = undefined;
    }
    if (parsed?.error) {
      const code = typeof parsed.error.code === 'number' ? parsed.error.code : undefined;
      throw new RpcError('rpc', method, parsed.error.message ?? 'unknown node error', code);
    }
    if (status !== 200 || parsed === undefined) {
      const hint = status === 401 ? 'unauthorized (wrong RPC user or password)' : `HTTP ${status}`;
      const snippet = text.trim().slice(0, 200);
      throw new RpcError('http', method, snippet ? `${hint}: ${snippet}` : hint, status);
    }
    return parsed.result as T;
  }

  /**
   * GET of a JSON document under the same endpoint and credentials (for what a node serves only
   * over its REST API, e.g. bcoin's wallet transactions). Resolves undefined on 404.
   */
  async getJson<T = unknown>(path: string, options: RpcCallOptions = {}): Promise<T | undefined> {
    const label = `GET ${path.split('?')[0] ?? path}`;
    const { status, text } = await this.send('GET', new URL(path, this.target), label, undefined, options);
    if (status === 404) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (status !== 200 || parsed === undefined) {
      const message =
        (parsed as { error?: { message?: string } } | undefined)?.error?.message ?? text.trim().slice(0, 200);
      throw new RpcError('http', label, `HTTP ${status}${message ? `: ${message}` : ''}`, status);
    }
    return parsed as T;
  }

  /** Closes this client's idle connections; later calls open new ones. */
  close(): void {
    this.agent.destroy();
  }

  private send(
    verb: 'GET' | 'POST',
    target: URL,
    method: string,
    body: string | undefined,
    options: RpcCallOptions,
    attempt = 0,
  ): Promise<{ status: number; text: string }> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (err: RpcError | null, value?: { status: number; text: string }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else if (value) resolve(value);
      };
      const headers: http.OutgoingHttpHeaders = { authorization: this.authHeader };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(body);
      }
      const req = http.request(target, { method: verb, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          finish(null, { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', (e) => finish(new RpcError('transport', method, e.message, undefined, e)));
      });
      const timer = setTimeout(() => {
        finish(new RpcError('timeout', method, `no answer within ${timeoutMs} ms from ${this.target.host}`));
        req.destroy();
      }, timeoutMs);
      const onAbort = (): void => {
        finish(new RpcError('timeout', method, 'aborted'));
        req.destroy();
      };
      if (options.signal?.aborted) {
        onAbort();
        return;
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (e: NodeJS.ErrnoException) => {
        // A kept-alive socket the node closed while idle: the request never reached it, so one
        // retry on a fresh connection is safe (the pattern Node's http docs recommend).
        if (attempt === 0 && req.reusedSocket && e.code === 'ECONNRESET' && !settled) {
          settled = true;
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          this.send(verb, target, method, body, options, 1).then(resolve, reject);
          return;
        }
        const what = e.code ? `${e.code} ${this.target.host}` : e.message;
        finish(new RpcError('transport', method, `cannot reach node (${what})`, undefined, e));
      });
      req.end(body);
    });
  }
}
