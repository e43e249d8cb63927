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
import { loadVapidKeys, pushSubscriptionSchema, vapidSubject } from './push.js';
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
