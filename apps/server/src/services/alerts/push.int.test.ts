import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPushSubscriptions, savePushSubscription } from '../../db/repositories/alerts.js';
import { describeEachDatabase } from '../../../test/support/db.js';
import { PoolEvents } from '../../events.js';
import { startAlerts } from './loop.js';
import { ServiceError } from '../errors.js';
import type { Resolve } from '../outbound/policy.js';
import { subscribeToPush } from './notifications.js';
import { createPushSender, loadVapidKeys, pushSubscriptionSchema, vapidSubject } from './push.js';
import { FixtureWriter } from '../../../test/support/db/fixtures.js';

// A fake push service on 127.0.0.1:0 receives what the pool pushes; the test plays the browser:
// it holds the subscription's private key and decrypts the message (RFC 8291, aes128gcm).

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}
const received: Received[] = [];
let service: Server;
let serviceUrl = '';
beforeAll(async () => {
  service = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(request.url?.startsWith('/gone/') ? 410 : 201).end();
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => service.close(() => resolve()));
});

interface Browser {
  ecdh: ECDH;
  auth: Buffer;
  endpoint: string;
}
function browser(path: string): Browser {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, auth: randomBytes(16), endpoint: `${serviceUrl}${path}` };
}

function decrypt(body: Buffer, to: Browser): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20] ?? 0;
  const serverKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = to.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), to.ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, to.auth, keyInfo, 32));
  const key = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', key, nonce);
  decipher.setAuthTag(ciphertext.subarray(-16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, -16)), decipher.final()]);
  return plain.subarray(0, plain.lastIndexOf(2)).toString('utf8');
}

const dataDir = mkdtempSync(join(tmpdir(), 'manjam-push-'));
const logger = pino({ level: 'silent' });

describeEachDatabase('browser push alerts', (db) => {
  it('pushes an encrypted Arabic alert to a subscribed browser once, and forgets a browser that unsubscribed', async () => {
    const userId = await new FixtureWriter(db()).user({ username: `push_${db().kind}`, language: 'ar' });
    const payee = await new FixtureWriter(db()).payee('BTC', { userId });
    await new FixtureWriter(db()).worker(payee, 'rig1', {
      coin: 'BTC',
      lastShareAt: new Date(Date.now() - 11 * 60_000),
    });
    const live = browser(`/ok/${db().kind}`);
    const gone = browser(`/gone/${db().kind}`);
    for (const b of [live, gone]) {
      await savePushSubscription(db(), userId, {
        endpoint: b.endpoint,
        p256dh: b.ecdh.getPublicKey('base64url'),
        auth: b.auth.toString('base64url'),
      });
    }
    const before = received.length;
    const alerts = await startAlerts({
      config: { dataDir, publicHost: 'pool.test' },
      db: db(),
      logger,
      events: new PoolEvents(),
      mailer: null,
      // The fake push service listens on http://127.0.0.1 (the outbound policy's dev allowance).
      settings: { webhook: { allowLoopbackHttp: true } },
    });
    await alerts.runOnce();
    await alerts.runOnce();
    await alerts.stop();

    const mine = received.slice(before).filter((r) => r.path.endsWith(`/${db().kind}`));
    expect(mine.map((r) => r.path)).toEqual([`/ok/${db().kind}`, `/gone/${db().kind}`]);
    const [first] = mine;
    expect(first?.headers['content-encoding']).toBe('aes128gcm');
    expect(first?.headers.ttl).toBe('86400');
    expect(first?.headers.authorization).toContain(`k=${loadVapidKeys(dataDir).publicKey}`);
    const message = JSON.parse(decrypt(first?.body ?? Buffer.alloc(0), live)) as {
      kind: string;
      title: string;
      url: string;
    };
    expect(message).toMatchObject({
      kind: 'worker-offline',
      title: 'العامل rig1 غير متصل',
      url: '/dashboard',
    });
    expect((await listPushSubscriptions(db(), userId)).map((s) => s.endpoint)).toEqual([live.endpoint]);
  });
});

describe('push subscription input', () => {
  const keys = {
    p256dh: createECDH('prime256v1').generateKeys('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };

  it('accepts a browser subscription to a public https push service', () => {
    expect(
      pushSubscriptionSchema.safeParse({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys }).success,
    ).toBe(true);
  });

  it.each([
    ['http://fcm.googleapis.com/fcm/send/abc', 'Push endpoint must be an https URL'],
    ['https://127.0.0.1/push', 'Push endpoint host is not allowed'],
    ['https://localhost/push', 'Push endpoint host is not allowed'],
    ['https://[::1]/push', 'Push endpoint host is not allowed'],
  ])('refuses the endpoint %s', (endpoint, message) => {
    expect(pushSubscriptionSchema.safeParse({ endpoint, keys }).error?.issues[0]?.message).toBe(message);
  });

  it('refuses an endpoint that is not a URL at all with the reason, not an error', () => {
    for (const endpoint of ['y', '', 'https://', 'javascript:alert(1)'])
      expect(pushSubscriptionSchema.safeParse({ endpoint, keys }).error?.issues[0]?.message).toBe(
        'Push endpoint must be an https URL',
      );
  });

  it('refuses the endpoint https://localhost./push (a fully qualified localhost)', () => {
    expect(
      pushSubscriptionSchema.safeParse({ endpoint: 'https://localhost./push', keys }).error?.issues[0]
        ?.message,
    ).toBe('Push endpoint host is not allowed');
  });

  it('refuses keys of the wrong size', () => {
    const result = pushSubscriptionSchema.safeParse({
      endpoint: 'https://push.example/x',
      keys: { ...keys, auth: 'c2hvcnQ' },
    });
    expect(result.error?.issues[0]?.message).toBe('auth secret is not valid');
  });

  it('uses the alerts sender address as the VAPID subject', () => {
    expect(vapidSubject('Manjam <alerts@manjam.example>', 'pool.test')).toBe('mailto:alerts@manjam.example');
    expect(vapidSubject(undefined, 'pool.test')).toBe('https://pool.test');
  });
});

/** A resolver answering as public DNS does for these names (nip.io names carry their address). */
const dns: Resolve = (host) => {
  const carried = /^(\d+\.\d+\.\d+\.\d+)\.nip\.io$/.exec(host)?.[1];
  if (carried) return Promise.resolve([{ address: carried, family: 4 }]);
  if (host === 'fcm.googleapis.com') return Promise.resolve([{ address: '142.250.74.42', family: 4 }]);
  return Promise.reject(new Error(`ENOTFOUND ${host}`));
};

describeEachDatabase('push subscriptions under the outbound policy', (db) => {
  const keys = {
    p256dh: createECDH('prime256v1').generateKeys('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
  const production = { allowLoopbackHttp: false };
  const refusal = async (userId: number, endpoint: string) => {
    const error = await subscribeToPush(db(), userId, { endpoint, keys }, production, dns).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    return error instanceof ServiceError ? { status: error.status, endpoint: error.fields?.endpoint } : error;
  };

  it('refuses endpoints whose host resolves to private or link-local space, and saves none of them', async () => {
    const userId = await new FixtureWriter(db()).user({ username: `push_ssrf_${db().kind}` });
    for (const endpoint of [
      'https://127.0.0.1.nip.io:8443/push',
      'https://169.254.169.254.nip.io/latest/meta-data',
      'https://10.0.0.5.nip.io/push',
    ])
      expect({ endpoint, refused: await refusal(userId, endpoint) }).toEqual({
        endpoint,
        refused: {
          status: 400,
          endpoint:
            'This browser push endpoint cannot be used: it must be an https URL whose host resolves to public addresses only',
        },
      });
    expect(await listPushSubscriptions(db(), userId)).toEqual([]);
  });

  it('says plainly that a host which does not resolve could not be found', async () => {
    const userId = await new FixtureWriter(db()).user({ username: `push_nxd_${db().kind}` });
    expect(await refusal(userId, 'https://metadata.google.internal/computeMetadata/v1/')).toEqual({
      status: 400,
      endpoint: 'The host name of this URL could not be found. Check that it is spelled correctly.',
    });
  });

  it('saves an endpoint of a public push service', async () => {
    const userId = await new FixtureWriter(db()).user({ username: `push_ok_${db().kind}` });
    expect(await refusal(userId, 'https://fcm.googleapis.com/fcm/send/abc')).toBeNull();
    expect((await listPushSubscriptions(db(), userId)).map((s) => s.endpoint)).toEqual([
      'https://fcm.googleapis.com/fcm/send/abc',
    ]);
  });
});

describe('push delivery under the outbound policy', () => {
  const keys = loadVapidKeys(dataDir);
  const subscription = (endpoint: string) => ({
    endpoint,
    p256dh: createECDH('prime256v1').generateKeys('base64url'),
    auth: randomBytes(16).toString('base64url'),
  });
  const limits = { timeoutMs: 2_000, maxResponseBytes: 1_024, allowLoopbackHttp: false };

  it('does not connect to an endpoint whose host now resolves to a private address', async () => {
    const before = received.length;
    const sender = createPushSender(keys, 'https://pool.test', limits, () =>
      Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
    );
    const port = new URL(serviceUrl).port;
    await expect(sender.send(subscription(`https://push.example:${port}/rebound`), 'hello')).rejects.toThrow(
      'push not sent: the host push.example resolves to a private or reserved address',
    );
    expect(received.length).toBe(before);
  });

  it('does not follow a redirect from the push service', async () => {
    const redirecting = createServer((_request, response) =>
      response.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data' }).end(),
    );
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const port = (redirecting.address() as AddressInfo).port;
    const sender = createPushSender(keys, 'https://pool.test', { ...limits, allowLoopbackHttp: true });
    await expect(sender.send(subscription(`http://127.0.0.1:${port}/push`), 'hello')).rejects.toThrow(
      'push service answered HTTP 307',
    );
    await new Promise<void>((resolve) => redirecting.close(() => resolve()));
  });
});
