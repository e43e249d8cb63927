import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';
import type { PushSubscriptionRow } from '../../db/repositories/alerts.js';
import {
  OUTBOUND_URL_MAX,
  parseOutboundUrl,
  sendOutbound,
  systemResolve,
  type OutboundLimits,
  type Resolve,
} from '../outbound/policy.js';

// Browser push (Web Push with VAPID, RFC 8030/8291/8292) through the `web-push` library. The
// pool's VAPID key pair is generated once and kept under dataDir, like the auth secret.

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** Sends one encrypted push message; rejects with PushGoneError when the browser unsubscribed. */
export interface PushSender {
  readonly publicKey: string;
  send(subscription: PushSubscriptionRow, payload: string): Promise<void>;
}

export class PushGoneError extends Error {
  constructor(readonly statusCode: number) {
    super(`push subscription gone (HTTP ${statusCode})`);
    this.name = 'PushGoneError';
  }
}

const keysSchema = z.object({ publicKey: z.string().min(80), privateKey: z.string().min(40) });

export function loadVapidKeys(dataDir: string): VapidKeys {
  const file = join(dataDir, 'vapid.json');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, `${JSON.stringify(webpush.generateVAPIDKeys())}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return keysSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** The VAPID subject: the alerts sender address when there is one, else the pool's site. */
export function vapidSubject(smtpFrom: string | undefined, publicHost: string): string {
  const address = smtpFrom ? (/<([^>]+)>/.exec(smtpFrom)?.[1] ?? smtpFrom).trim() : '';
  return /^[^\s@]+@[^\s@]+$/.test(address) ? `mailto:${address}` : `https://${publicHost}`;
}

/**
 * A sender: `web-push` builds the encrypted request (aes128gcm payload, VAPID Authorization header),
 * and the outbound policy delivers it (services/outbound/policy.ts: every address of the endpoint's
 * host public and the one connected to, no redirects, a deadline). 404/410 mean the browser
 * unsubscribed.
 */
export function createPushSender(
  keys: VapidKeys,
  subject: string,
  limits: OutboundLimits,
  resolve: Resolve = systemResolve,
): PushSender {
  return {
    publicKey: keys.publicKey,
    async send(subscription, payload) {
      const request = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        payload,
        { vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey }, TTL: 24 * 3600 },
      );
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
      );
      const result = await sendOutbound(
        parseOutboundUrl(request.endpoint, limits),
        { method: 'POST', headers, body: request.body ? new Uint8Array(request.body) : new Uint8Array() },
        limits,
        resolve,
      );
      if (!result.sent) throw new Error(`push not sent: ${result.error}`);
      if (result.status === 404 || result.status === 410) throw new PushGoneError(result.status);
      if (result.status < 200 || result.status >= 300)
        throw new Error(`push service answered HTTP ${result.status}`);
    },
  };
}

const base64url = (bytes: number, what: string) =>
  z
    .string()
    .refine(
      (value) => /^[A-Za-z0-9_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64url').length === bytes,
      `${what} is not valid`,
    );

/** True for hosts a push service never has: IP literals, localhost, single-label names. */
function privateHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname.endsWith('.localhost.') ||
    /^[\d.]+$/.test(hostname) ||
    hostname.includes(':') ||
    !hostname.replace(/\.$/, '').includes('.')
  );
}

/** The host of an https URL (brackets removed); null for anything that is not one. */
function httpsHost(value: string): string | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  return url.protocol === 'https:' ? url.hostname.replace(/^\[|\]$/g, '') : null;
}

/**
 * A browser's PushSubscription.toJSON(). The endpoint must be an https URL on a host name of the
 * shape a push service has (no IP literal, localhost or single label); where its host resolves is
 * checked when it is saved and again at every send (the outbound policy). p256dh is a 65-byte
 * P-256 key, auth 16 bytes.
 */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .string()
    .max(OUTBOUND_URL_MAX)
    .refine((value) => httpsHost(value) !== null, {
      message: 'Push endpoint must be an https URL',
      abort: true,
    })
    .refine((value) => !privateHost(httpsHost(value) ?? ''), 'Push endpoint host is not allowed'),
  keys: z.object({ p256dh: base64url(65, 'p256dh key'), auth: base64url(16, 'auth secret') }),
});
