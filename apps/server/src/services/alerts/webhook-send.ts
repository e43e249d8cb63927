import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isLoopbackLiteral, isPublicAddress } from './webhook-address.js';

// One webhook POST, SSRF-safe (issue 27):
// - the URL is https (or, with alerts.webhook.allowLoopbackHttp, http to the literal 127.0.0.1 or
//   [::1]: the only private target ever allowed, for tests and dev), carries no user:password,
//   and is at most 2,000 characters;
// - the host is resolved once, EVERY address it resolves to must be public (webhook-address.ts),
//   and the connection goes to the address that was checked (the socket's lookup answers with
//   it: no second DNS query that could rebind to a private address); TLS still checks the
//   certificate against the host name;
// - redirects are never followed (a 3xx is a failure the owner sees), the whole exchange has a
//   deadline, and at most maxResponseBytes of the answer are read.

export interface WebhookLimits {
  timeoutMs: number;
  maxResponseBytes: number;
  allowLoopbackHttp: boolean;
}

/** Resolves a host name to its addresses (default: the system resolver, every address). */
export type Resolve = (host: string) => Promise<LookupAddress[]>;
export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

export const WEBHOOK_URL_MAX = 2_000;

/** A URL or address the pool will not post to; `reason` is shown to the owner. */
export class WebhookRefused extends Error {
  override readonly name = 'WebhookRefused';
}

export type WebhookOutcome =
  | { ok: true; status: number }
  /** `retry`: worth another attempt later (5xx, 408, 425, 429, a timeout, a network error). */
  | { ok: false; retry: boolean; error: string };

/** Checks the form of a webhook URL (not its addresses); throws WebhookRefused. */
export function parseWebhookUrl(text: string, limits: Pick<WebhookLimits, 'allowLoopbackHttp'>): URL {
  if (text.length > WEBHOOK_URL_MAX) throw new WebhookRefused('the URL is too long');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookRefused('not a valid URL');
  }
  if (url.username || url.password) throw new WebhookRefused('the URL may not carry a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && limits.allowLoopbackHttp && isLoopbackLiteral(host)) return url;
  throw new WebhookRefused('the URL must start with https://');
}

/** The one address to connect to: the host's, when every address it has is allowed. */
export async function checkedAddress(
  url: URL,
  limits: Pick<WebhookLimits, 'allowLoopbackHttp'>,
  resolve: Resolve,
): Promise<LookupAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  if (url.protocol === 'http:' && limits.allowLoopbackHttp && isLoopbackLiteral(host))
    return { address: host, family: literal };
  let addresses: LookupAddress[];
  try {
    addresses = literal ? [{ address: host, family: literal }] : await resolve(host);
  } catch {
    throw new WebhookRefused(`the host ${host} could not be resolved`);
  }
  const [first] = addresses;
  if (!first) throw new WebhookRefused(`the host ${host} has no address`);
  const refused = addresses.find((entry) => !isPublicAddress(entry.address));
  if (refused) throw new WebhookRefused(`the host ${host} resolves to a private or reserved address`);
  return first;
}

function classify(status: number): WebhookOutcome {
  if (status >= 200 && status < 300) return { ok: true, status };
  if (status >= 300 && status < 400)
    return { ok: false, retry: false, error: `HTTP ${status}: redirects are not followed` };
  const retry = status >= 500 || status === 408 || status === 425 || status === 429;
  return { ok: false, retry, error: `HTTP ${status}` };
}

/** Reads at most `cap` bytes of the answer, then lets the socket go. */
function drain(response: IncomingMessage, cap: number, done: () => void): void {
  let read = 0;
  response.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > cap) {
      response.destroy();
      done();
    }
  });
  response.on('end', done);
  response.on('error', done);
}

/** POSTs `body` (JSON) to `url`; never throws: the outcome says what happened. */
export async function postWebhook(
  url: URL,
  body: string,
  headers: Record<string, string>,
  limits: WebhookLimits,
  resolve: Resolve = systemResolve,
): Promise<WebhookOutcome> {
  let target: LookupAddress;
  try {
    target = await checkedAddress(url, limits, resolve);
  } catch (error) {
    return { ok: false, retry: false, error: (error as Error).message };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const options: RequestOptions & { servername?: string } = {
    method: 'POST',
    host,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    agent: false,
    headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    // The socket connects to the checked address, whatever the resolver would answer now.
    lookup: (_name, opts, callback) => {
      if ((opts as { all?: boolean }).all) callback(null, [target]);
      else callback(null, target.address, target.family);
    },
  };
  if (url.protocol === 'https:' && !isIP(host)) options.servername = host;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<WebhookOutcome>((resolveOutcome) => {
    let settled = false;
    const finish = (outcome: WebhookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolveOutcome(outcome);
    };
    const req = send(options, (response) => {
      const outcome = classify(response.statusCode ?? 0);
      drain(response, limits.maxResponseBytes, () => finish(outcome));
    });
    const deadline = setTimeout(() => {
      finish({ ok: false, retry: true, error: `no answer within ${limits.timeoutMs} ms` });
      req.destroy();
    }, limits.timeoutMs);
    req.on('error', (error) => finish({ ok: false, retry: true, error: error.message }));
    req.end(body);
  });
}
