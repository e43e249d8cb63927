import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isLoopbackLiteral, isPublicAddress } from './addresses.js';

// The one policy for every request the server sends to a URL a user can aim (alert webhooks,
// browser push endpoints):
// - the URL is https (or, with alerts.webhook.allowLoopbackHttp, http to the literal 127.0.0.1 or
//   [::1]: the only private target ever allowed, for tests and dev), carries no user:password,
//   and is at most 2,000 characters;
// - the host is resolved once, EVERY address it resolves to must be public (addresses.ts), and
//   the socket connects to the address that was checked (its lookup answers with it: no second
//   DNS query that could rebind to a private address); TLS still checks the certificate against
//   the host name;
// - redirects are never followed (the caller sees the 3xx), the whole exchange has a deadline,
//   and at most maxResponseBytes of the answer are read.
// The operator's own URLs (node RPC, the rig-management API base URL) are config, not user input,
// and do not go through here.

export interface OutboundLimits {
  timeoutMs: number;
  maxResponseBytes: number;
  allowLoopbackHttp: boolean;
}

/** Resolves a host name to its addresses (default: the system resolver, every address). */
export type Resolve = (host: string) => Promise<LookupAddress[]>;
export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

export const OUTBOUND_URL_MAX = 2_000;

/**
 * Why a URL is refused: its form; a host that does not resolve (a typo, a name gone: say so
 * plainly); or an address in private or reserved space.
 */
export type RefusalKind = 'form' | 'unresolved' | 'private';

/** A URL or address the pool will not send to; `message` is shown to the owner. */
export class OutboundRefused extends Error {
  override readonly name = 'OutboundRefused';
  constructor(
    message: string,
    readonly kind: RefusalKind,
  ) {
    super(message);
  }
}

const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '');

/** Checks the form of a URL (not its addresses); throws OutboundRefused. */
export function parseOutboundUrl(text: string, limits: Pick<OutboundLimits, 'allowLoopbackHttp'>): URL {
  if (text.length > OUTBOUND_URL_MAX) throw new OutboundRefused('the URL is too long', 'form');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundRefused('not a valid URL', 'form');
  }
  if (url.username || url.password)
    throw new OutboundRefused('the URL may not carry a user name or password', 'form');
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && limits.allowLoopbackHttp && isLoopbackLiteral(hostOf(url))) return url;
  throw new OutboundRefused('the URL must start with https://', 'form');
}

/** The one address to connect to: the host's, when every address it has is allowed. */
export async function checkedAddress(
  url: URL,
  limits: Pick<OutboundLimits, 'allowLoopbackHttp'>,
  resolve: Resolve,
): Promise<LookupAddress> {
  const host = hostOf(url);
  const literal = isIP(host);
  if (url.protocol === 'http:' && limits.allowLoopbackHttp && isLoopbackLiteral(host))
    return { address: host, family: literal };
  let addresses: LookupAddress[];
  try {
    addresses = literal ? [{ address: host, family: literal }] : await resolve(host);
  } catch {
    throw new OutboundRefused(`the host ${host} could not be resolved`, 'unresolved');
  }
  const [first] = addresses;
  if (!first) throw new OutboundRefused(`the host ${host} has no address`, 'unresolved');
  const refused = addresses.find((entry) => !isPublicAddress(entry.address));
  if (refused)
    throw new OutboundRefused(`the host ${host} resolves to a private or reserved address`, 'private');
  return first;
}

/** Parses and checks a URL a user gives (form, then every address); throws OutboundRefused. */
export async function checkOutboundUrl(
  text: string,
  limits: Pick<OutboundLimits, 'allowLoopbackHttp'>,
  resolve: Resolve = systemResolve,
): Promise<URL> {
  const url = parseOutboundUrl(text, limits);
  await checkedAddress(url, limits, resolve);
  return url;
}

export interface OutboundRequest {
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string | Uint8Array;
}

export type OutboundResult =
  /** The answer's status (a 3xx is returned as it is: redirects are never followed). */
  | { sent: true; status: number }
  /** Not sent: the URL or its address is refused (`refused`), or the exchange failed. */
  | { sent: false; refused: boolean; error: string };

/** Sends `request` to `url` under the policy; never throws. */
export async function sendOutbound(
  url: URL,
  request: OutboundRequest,
  limits: OutboundLimits,
  resolve: Resolve = systemResolve,
): Promise<OutboundResult> {
  let target: LookupAddress;
  try {
    target = await checkedAddress(url, limits, resolve);
  } catch (error) {
    return { sent: false, refused: error instanceof OutboundRefused, error: (error as Error).message };
  }
  const host = hostOf(url);
  const options: RequestOptions & { servername?: string } = {
    method: request.method,
    host,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    agent: false,
    headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
    // The socket connects to the checked address, whatever the resolver would answer now.
    lookup: (_name, opts, callback) => {
      if ((opts as { all?: boolean }).all) callback(null, [target]);
      else callback(null, target.address, target.family);
    },
  };
  if (url.protocol === 'https:' && !isIP(host)) options.servername = host;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<OutboundResult>((settle) => {
    let settled = false;
    const finish = (result: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      settle(result);
    };
    const req = send(options, (response) => {
      const result: OutboundResult = { sent: true, status: response.statusCode ?? 0 };
      // Reads at most maxResponseBytes of the answer, then lets the socket go.
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > limits.maxResponseBytes) {
          response.destroy();
          finish(result);
        }
      });
      response.on('end', () => finish(result));
      response.on('error', () => finish(result));
    });
    const deadline = setTimeout(() => {
      finish({ sent: false, refused: false, error: `no answer within ${limits.timeoutMs} ms` });
      req.destroy();
    }, limits.timeoutMs);
    req.on('error', (error) => finish({ sent: false, refused: false, error: error.message }));
    req.end(request.body);
  });
}
