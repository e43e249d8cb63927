import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/support/db.js';
import { FixtureWriter } from '../../../test/support/db/fixtures.js';
import { alertSettingsSchema } from '../../config/alerts.js';
import { saveWebhook } from '../../db/repositories/webhooks.js';
import type { Database } from '../../db/types.js';
import { PoolEvents } from '../../events.js';
import { secretBoxFor } from '../auth/secret-box.js';
import { ServiceError } from '../errors.js';
import { startAlerts, type AlertsHandle } from './loop.js';
import { getWebhook, sealUrl, sendTestWebhook, setWebhook } from './webhook.js';

// Alert webhooks against a real HTTP server on 127.0.0.1 (issue 27). The pool runs with
// alerts.webhook.allowLoopbackHttp on, the one config key that lets it post to http://127.0.0.1.

interface Hit {
  path: string;
  delivery: string | undefined;
  body: Record<string, unknown>;
}
/** What the receiver answers next, per path: a status, 'hang' (never answers) or a redirect. */
type Answer = number | 'hang' | { redirect: string };
const hits: Hit[] = [];
const answers = new Map<string, Answer[]>();
const hanging: ServerResponse[] = [];
let receiver: Server;
let base = '';

function answer(request: IncomingMessage, response: ServerResponse, body: string): void {
  const path = request.url ?? '';
  hits.push({
    path,
    delivery: request.headers['x-manjam-delivery'] as string | undefined,
    body: JSON.parse(body) as Record<string, unknown>,
  });
  const next = answers.get(path)?.shift() ?? 200;
  if (next === 'hang') hanging.push(response);
  else if (typeof next === 'object') response.writeHead(302, { location: `${base}${next.redirect}` }).end();
  else response.writeHead(next, { 'content-type': 'text/plain' }).end('x'.repeat(100_000));
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => answer(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of hanging) response.destroy();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const logger = pino({ level: 'silent' });
const dataDir = mkdtempSync(join(tmpdir(), 'manjam-webhook-'));
/** The api's box; the loop builds its own from the same dataDir key. */
const box = secretBoxFor({ dataDir });
const MIN = 60_000;
let clock = new Date('2026-11-22T10:00:00Z');
const advance = (minutes: number) => {
  clock = new Date(clock.getTime() + minutes * MIN);
};
const webhookSettings = { allowLoopbackHttp: true, timeoutMs: 400, backoffSeconds: 30 };
const settings = alertSettingsSchema.parse({ webhook: webhookSettings });
const handles: AlertsHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.stop();
});

async function start(db: Database): Promise<AlertsHandle> {
  const handle = await startAlerts({
    config: { smtp: undefined, dataDir, publicHost: 'pool.test' },
    db,
    logger,
    events: new PoolEvents(),
    now: () => clock,
    mailer: null,
    push: null,
    settings: { intervalSeconds: 3_600, eventDelayMs: 0, webhook: webhookSettings },
  });
  handles.push(handle);
  return handle;
}

/** A miner whose rig1 has been silent 11 minutes (one offline alert on the next pass), webhook at `path`. */
async function minerWithHook(db: Database, username: string, path: string, language: 'en' | 'ar' = 'en') {
  const fx = new FixtureWriter(db);
  const userId = await fx.user({ username, language });
  const payeeId = await fx.payee('BTC', { userId });
  await fx.worker(payeeId, 'rig1', { coin: 'BTC', lastShareAt: new Date(clock.getTime() - 11 * MIN) });
  await setWebhook({ db, box, settings: settings.webhook }, userId, `${base}${path}`);
  return userId;
}

const hitsOn = (path: string) => hits.filter((hit) => hit.path === path);

async function deliveryOf(db: Database, userId: number) {
  const rows = await db.query<{ status: string; attempts: number; error: string | null }>(
    `SELECT webhook_status AS status, webhook_attempts AS attempts, webhook_error AS error
       FROM alerts WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
  return rows.rows;
}

describeEachDatabase('alert webhooks', (db) => {
  it('posts an Arabic miner one offline alert as JSON in Arabic, once', async () => {
    const path = `/once-${db().kind}`;
    const userId = await minerWithHook(db(), `hook_once_${db().kind}`, path, 'ar');
    const alerts = await start(db());
    await alerts.runOnce(); // (the loop also runs a pass of its own at start)
    await alerts.runOnce();
    const [hit, ...more] = hitsOn(path);
    expect(more).toEqual([]);
    expect(hit?.body).toMatchObject({
      event: 'worker-offline',
      worker: 'rig1',
      coin: 'BTC',
      language: 'ar',
      title: 'العامل rig1 غير متصل',
    });
    expect(String(hit?.body.message)).toContain('لم يرسل العامل rig1 (BTC) أي حصة مقبولة');
    expect(hit?.delivery).toBe(String(hit?.body.id));
    expect(await deliveryOf(db(), userId)).toEqual([{ status: 'sent', attempts: 1, error: null }]);
    expect((await getWebhook({ db: db(), box }, userId)).lastError).toBeNull();
  });

  it('retries after an HTTP 500, shows the error to the owner meanwhile, and delivers once', async () => {
    const path = `/busy-${db().kind}`;
    answers.set(path, [500]);
    const userId = await minerWithHook(db(), `hook_500_${db().kind}`, path);
    const alerts = await start(db());
    await alerts.runOnce();
    expect(await deliveryOf(db(), userId)).toEqual([{ status: 'pending', attempts: 1, error: 'HTTP 500' }]);
    expect((await getWebhook({ db: db(), box }, userId)).lastError).toBe('HTTP 500');
    await alerts.runOnce(); // the backoff (30 s) has not passed: nothing is sent
    expect(hitsOn(path)).toHaveLength(1);
    advance(1);
    await alerts.runOnce();
    expect(hitsOn(path)).toHaveLength(2);
    expect(await deliveryOf(db(), userId)).toEqual([{ status: 'sent', attempts: 2, error: null }]);
    expect((await getWebhook({ db: db(), box }, userId)).lastDeliveredAt).not.toBeNull();
  });

  it('gives up on a receiver that never answers within the deadline, then retries it', async () => {
    const path = `/slow-${db().kind}`;
    answers.set(path, ['hang']);
    const userId = await minerWithHook(db(), `hook_slow_${db().kind}`, path);
    const alerts = await start(db());
    const started = Date.now();
    await alerts.runOnce();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await deliveryOf(db(), userId)).toEqual([
      { status: 'pending', attempts: 1, error: 'no answer within 400 ms' },
    ]);
    advance(1);
    await alerts.runOnce();
    expect(await deliveryOf(db(), userId)).toEqual([{ status: 'sent', attempts: 2, error: null }]);
  });

  it('does not follow a redirect: the target is never called and the owner sees why', async () => {
    const path = `/moved-${db().kind}`;
    answers.set(path, [{ redirect: `/elsewhere-${db().kind}` }]);
    const userId = await minerWithHook(db(), `hook_302_${db().kind}`, path);
    const alerts = await start(db());
    await alerts.runOnce();
    advance(10);
    await alerts.runOnce();
    expect(hitsOn(path)).toHaveLength(1);
    expect(hitsOn(`/elsewhere-${db().kind}`)).toEqual([]);
    expect(await deliveryOf(db(), userId)).toEqual([
      { status: 'failed', attempts: 1, error: 'HTTP 302: redirects are not followed' },
    ]);
  });

  it('refuses private and loopback addresses when the URL is saved', async () => {
    const userId = await new FixtureWriter(db()).user({ username: `hook_save_${db().kind}` });
    const production = { db: db(), box, settings: alertSettingsSchema.parse({}).webhook };
    for (const url of [
      'https://10.0.0.1/hook',
      'https://[::ffff:192.168.0.1]/hook',
      'https://[fd00::1]/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://localhost/hook',
      `${base}/hook`,
    ]) {
      const refused = await setWebhook(production, userId, url).catch((error: unknown) => error);
      expect(refused, url).toBeInstanceOf(ServiceError);
      expect((refused as ServiceError).fields?.url, url).toMatch(/^This webhook URL cannot be used/);
    }
    expect((await getWebhook({ db: db(), box }, userId)).url).toBeNull();
  });

  it('refuses at send time a host that now resolves to a private address, without connecting', async () => {
    const path = `/rebound-${db().kind}`;
    const userId = await minerWithHook(db(), `hook_rebind_${db().kind}`, path);
    // As if its DNS changed after it was saved: localhost resolves to 127.0.0.1 / ::1.
    const port = new URL(base).port;
    await saveWebhook(db(), userId, sealUrl(box, `https://localhost:${port}${path}`));
    await (await start(db())).runOnce();
    expect(hits.filter((hit) => hit.path === path)).toEqual([]);
    const [row] = await deliveryOf(db(), userId);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row?.error).toBe('the host localhost resolves to a private or reserved address');
    expect((await getWebhook({ db: db(), box }, userId)).lastError).toBe(row?.error);
  });

  it('delivers once across a restart in the middle of retrying', async () => {
    const path = `/restart-${db().kind}`;
    answers.set(path, [503]);
    const userId = await minerWithHook(db(), `hook_restart_${db().kind}`, path);
    const first = await start(db());
    await first.runOnce();
    await first.stop();
    advance(1);
    const second = await start(db());
    await second.runOnce();
    advance(10);
    await (await start(db())).runOnce();
    expect(hitsOn(path).map((hit) => hit.body.event)).toEqual(['worker-offline', 'worker-offline']);
    expect(await deliveryOf(db(), userId)).toEqual([{ status: 'sent', attempts: 2, error: null }]);
  });

  it('sends a test message on demand and reports a failing receiver', async () => {
    const path = `/test-${db().kind}`;
    const userId = await minerWithHook(db(), `hook_test_${db().kind}`, path, 'ar');
    const ctx = { db: db(), box, settings: settings.webhook, now: () => clock };
    const ok = await sendTestWebhook(ctx, userId, 'ar');
    expect(ok).toMatchObject({ delivered: true, error: null });
    expect(hitsOn(path)[0]?.body).toMatchObject({ event: 'webhook-test', id: null, language: 'ar' });
    answers.set(path, [404]);
    const failed = await sendTestWebhook(ctx, userId, 'en');
    expect(failed).toMatchObject({ delivered: false, error: 'HTTP 404' });
    expect(failed.webhook.lastError).toBe('HTTP 404');
  });
});
