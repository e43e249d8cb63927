/* eslint-disable @typescript-eslint/no-unsafe-member-access -- tests read JSON bodies field by field */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DATABASE_KINDS,
  describeEachDatabase,
  openTestDatabase,
  type TestDatabase,
} from '../../../test/support/db.js';
import { FixtureWriter } from '../../../test/support/db/fixtures.js';
import { startTestApi, type TestApi } from '../../../test/support/http.js';
import { alertSettingsSchema } from '../../config/alerts.js';
import { listMigrations, migrate } from '../../db/migrate.js';
import { sealWebhookUrl } from '../../db/repositories/webhooks.js';
import type { Database } from '../../db/types.js';
import { PoolEvents } from '../../events.js';
import { SecretBox } from '../auth/secret-box.js';
import { startAlerts, type AlertsDeps, type AlertsHandle } from './loop.js';
import { getWebhook, sealLegacyWebhooks, sealUrl, sendTestWebhook, setWebhook } from './webhook.js';

// Alert webhook URLs sealed at rest (migration 0700): a Telegram-style bot URL carries the bot's
// token, so the database holds it only sealed; its owner still sees it in full, and alerts still
// reach it (a real HTTP server on 127.0.0.1, alerts.webhook.allowLoopbackHttp on).

/** A Telegram-style bot token: the secret a dump must not give away. */
const TOKEN = '7733118822:AAH-sealed-bot-token-9f8e7d6c5b4a';
const hits: { path: string; event: unknown }[] = [];
/** What the receiver answers next, per path (default 200). */
const answers = new Map<string, number[]>();
let receiver: Server;
let base = '';

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event: unknown };
      hits.push({ path, event: body.event });
      response.writeHead(answers.get(path)?.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const MIN = 60_000;
const clock = new Date('2026-12-01T10:00:00Z');
const webhookSettings = { allowLoopbackHttp: true, timeoutMs: 2_000 };
const settings = alertSettingsSchema.parse({ webhook: webhookSettings });
const handles: AlertsHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.stop();
});

/** The bot URL of one test: a path of its own, the token in it, a chat id in the query. */
const botUrl = (name: string) => `${base}/bot${TOKEN}/${name}?chat_id=42`;
const pathOf = (url: string) => url.slice(base.length);
const hitsOn = (url: string) => hits.filter((hit) => hit.path === pathOf(url));

/** One alerts pass (the loop's own key: auth.secret from `config`, else `box`). */
async function alertsPass(
  db: Database,
  config: Pick<AlertsDeps['config'], 'dataDir' | 'auth'>,
  box?: SecretBox,
) {
  const handle = await startAlerts({
    config: { smtp: undefined, publicHost: 'pool.test', ...config },
    db,
    ...(box ? { box } : {}),
    logger: pino({ level: 'silent' }),
    events: new PoolEvents(),
    now: () => clock,
    mailer: null,
    push: null,
    settings: { intervalSeconds: 3_600, eventDelayMs: 0, webhook: webhookSettings },
  });
  handles.push(handle);
  await handle.runOnce();
}

/** A worker of `userId` silent for 11 minutes: the next pass raises one offline alert for it. */
async function silentWorker(db: Database, userId: number): Promise<void> {
  const fx = new FixtureWriter(db);
  const payeeId = await fx.payee('BTC', { userId });
  await fx.worker(payeeId, 'rig1', { coin: 'BTC', lastShareAt: new Date(clock.getTime() - 11 * MIN) });
}

async function storedRow(db: Database, userId: number) {
  const rows = await db.query<{ url: string; mac: string | null; whole: string }>(
    `SELECT h.url, h.url_mac AS mac, row_to_json(h)::text AS whole FROM user_webhooks h WHERE h.user_id = $1`,
    [userId],
  );
  const row = rows.rows[0];
  if (!row) throw new Error('no webhook row');
  return row;
}

/** Nothing of the URL a dump could use: not the URL, not the token. */
function expectSealed(row: { url: string; whole: string }, url: string): void {
  expect(row.url).toMatch(/^v1:/);
  expect(row.whole).not.toContain(TOKEN);
  expect(row.whole).not.toContain(pathOf(url));
  expect(row.whole).not.toContain(url);
}

async function webhookStatus(db: Database, userId: number): Promise<string[]> {
  const rows = await db.query<{ status: string }>(
    'SELECT webhook_status AS status FROM alerts WHERE user_id = $1 ORDER BY id',
    [userId],
  );
  return rows.rows.map((row) => row.status);
}

describeEachDatabase('alert webhook URLs sealed at rest', (db) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(db(), { config: { alerts: { webhook: webhookSettings } } });
  });
  afterAll(() => api.close());

  it('stores a bot URL without its token, shows it to its owner in full, and delivers to it', async () => {
    const { token, id } = await api.signUp();
    await silentWorker(db(), id);
    const url = botUrl(`deliver-${db().kind}`);
    const saved = await api.request('PUT', '/api/settings/webhook', { token, body: { url } });
    expect(saved.status).toBe(200);
    expect(saved.json.url).toBe(url);
    expectSealed(await storedRow(db(), id), url);
    expect((await api.request('GET', '/api/settings/alerts', { token })).json.webhook.url).toBe(url);

    // The alerts loop (the accounting process) opens what the api sealed: the same auth.secret.
    await alertsPass(db(), api.config);
    expect(hitsOn(url).map((hit) => hit.event)).toEqual(['worker-offline']);
    expect(await webhookStatus(db(), id)).toEqual(['sent']);
    const test = await api.request('POST', '/api/settings/webhook/test', { token });
    expect(test.json).toMatchObject({ delivered: true, error: null, webhook: { url } });
    expect(hitsOn(url)).toHaveLength(2);
    expectSealed(await storedRow(db(), id), url);
  });

  it('keeps the last outcome when the same URL is saved again, and clears it for a new URL', async () => {
    const { token, id } = await api.signUp();
    const url = botUrl(`same-${db().kind}`);
    await api.request('PUT', '/api/settings/webhook', { token, body: { url } });
    const before = await storedRow(db(), id);
    answers.set(pathOf(url), [500]);
    const failed = await api.request('POST', '/api/settings/webhook/test', { token });
    expect(failed.json).toMatchObject({ delivered: false, error: 'HTTP 500' });

    const again = await api.request('PUT', '/api/settings/webhook', { token, body: { url } });
    expect(again.json).toMatchObject({
      url,
      lastError: 'HTTP 500',
      lastErrorAt: failed.json.webhook.lastErrorAt as string,
    });
    const resealed = await storedRow(db(), id);
    expect(resealed.url).not.toBe(before.url); // a fresh ciphertext each time...
    expect(resealed.mac).toBe(before.mac); // ...and one MAC per URL

    const other = botUrl(`other-${db().kind}`);
    const changed = await api.request('PUT', '/api/settings/webhook', { token, body: { url: other } });
    expect(changed.json).toEqual({ url: other, lastDeliveredAt: null, lastError: null, lastErrorAt: null });
    expect((await storedRow(db(), id)).mac).not.toBe(before.mac);
  });

  it('tells the owner to save again a URL sealed under another key, and does not post it', async () => {
    const userId = await new FixtureWriter(db()).user({ username: `hook_otherkey_${db().kind}` });
    const foreign = new SecretBox('a key this pool never had');
    const url = botUrl(`foreign-${db().kind}`);
    await setWebhook({ db: db(), box: foreign, settings: settings.webhook }, userId, url);
    const box = new SecretBox('the pool key');
    const ctx = { db: db(), box, settings: settings.webhook, now: () => clock };
    const sent = await sendTestWebhook(ctx, userId, 'en');
    expect(sent).toMatchObject({
      delivered: false,
      error: 'the saved URL cannot be read by the server: save it again',
      webhook: { url: null },
    });
    expect(hitsOn(url)).toEqual([]);
    await setWebhook(ctx, userId, url);
    expect(await sendTestWebhook(ctx, userId, 'en')).toMatchObject({ delivered: true, webhook: { url } });
  });
});

// Rows written before migration 0700 hold the URL in clear: each database starts at 0695, gets
// such rows as that code wrote them, then is migrated; the alerts loop seals them in place.
for (const kind of DATABASE_KINDS) {
  describe(`alert webhook URLs written before sealing [${kind}]`, () => {
    let handle: TestDatabase | undefined;
    const db = () => {
      if (!handle) throw new Error('database not open');
      return handle.db;
    };
    const box = new SecretBox('legacy test key');
    const legacy = { users: [] as number[], urls: [] as string[] };
    beforeAll(async () => {
      handle = await openTestDatabase(
        kind,
        listMigrations().filter((m) => m.version < 700),
      );
      const fx = new FixtureWriter(db());
      for (const name of ['delivered', 'resaved', 'idle']) {
        const userId = await fx.user({ username: `legacy_${name}_${kind}` });
        const url = botUrl(`legacy-${name}-${kind}`);
        await db().query(
          `INSERT INTO user_webhooks (user_id, url, last_error, last_error_at) VALUES ($1, $2, 'HTTP 500', $3)`,
          [userId, url, clock],
        );
        legacy.users.push(userId);
        legacy.urls.push(url);
      }
      await migrate(db());
    });
    afterAll(async () => {
      await handle?.drop();
    });

    it('shows an unsealed URL to its owner, and saving it again keeps its outcome and seals it', async () => {
      const [userId = 0, url = ''] = [legacy.users[1], legacy.urls[1]];
      expect(await getWebhook({ db: db(), box }, userId)).toMatchObject({ url, lastError: 'HTTP 500' });
      const saved = await setWebhook({ db: db(), box, settings: settings.webhook }, userId, url);
      expect(saved).toMatchObject({ url, lastError: 'HTTP 500' });
      const row = await storedRow(db(), userId);
      expectSealed(row, url);
      expect(row.mac).toBe(box.mac(url));
    });

    it('seals the rest at the first alerts pass and still delivers to them', async () => {
      const [userId = 0, url = ''] = [legacy.users[0], legacy.urls[0]];
      await silentWorker(db(), userId);
      await alertsPass(db(), { dataDir: '/nonexistent-unused' }, box);
      expect(hitsOn(url).map((hit) => hit.event)).toEqual(['worker-offline']);
      expect(await webhookStatus(db(), userId)).toEqual(['sent']);
      for (const [i, each] of legacy.urls.entries()) {
        const row = await storedRow(db(), legacy.users[i] ?? 0);
        expectSealed(row, each);
        expect(row.mac).toBe(box.mac(each));
        expect(box.decrypt(row.url)).toBe(each);
      }
      const shown = await getWebhook({ db: db(), box }, userId);
      expect(shown.url).toBe(url);
      expect(shown.lastDeliveredAt).toBe(clock.toISOString());
    });

    it('seals a row once when two processes seal at the same time, and nothing on a second run', async () => {
      const userId = await new FixtureWriter(db()).user({ username: `legacy_twice_${kind}` });
      const url = botUrl(`legacy-twice-${kind}`);
      await db().query('INSERT INTO user_webhooks (user_id, url) VALUES ($1, $2)', [userId, url]);
      const counts = await Promise.all([sealLegacyWebhooks(db(), box), sealLegacyWebhooks(db(), box)]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      expect(await sealLegacyWebhooks(db(), box)).toBe(0);
      const row = await storedRow(db(), userId);
      expectSealed(row, url);
      expect(box.decrypt(row.url)).toBe(url);
    });

    it('leaves alone a row its owner saved anew after a sealer read the old plaintext', async () => {
      const userId = await new FixtureWriter(db()).user({ username: `legacy_race_${kind}` });
      const old = botUrl(`legacy-old-${kind}`);
      await db().query('INSERT INTO user_webhooks (user_id, url) VALUES ($1, $2)', [userId, old]);
      const newer = botUrl(`legacy-newer-${kind}`);
      await setWebhook({ db: db(), box, settings: settings.webhook }, userId, newer);
      // The sealer listed the row while it still held `old`, and seals that only now.
      expect(await sealWebhookUrl(db(), userId, sealUrl(box, old))).toBe(false);
      expect(box.decrypt((await storedRow(db(), userId)).url)).toBe(newer);
    });
  });
}
