import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { describeEachDatabase } from '../../../test/support/db.js';
import type { Database } from '../../db/types.js';
import { PoolEvents } from '../../events.js';
import { startAlerts, type AlertsHandle } from './loop.js';
import { listUserNotifications, markUserNotificationRead } from './notifications.js';
import { FixtureWriter, type FixtureUser } from '../../../test/support/db/fixtures.js';
import { startSmtpInbox, type SmtpInbox } from '../../../test/support/smtp-inbox.js';

let smtp: SmtpInbox;
beforeAll(async () => {
  smtp = await startSmtpInbox();
});
afterAll(async () => {
  await smtp.close();
});

const logger = pino({ level: 'silent' });
const dataDir = mkdtempSync(join(tmpdir(), 'manjam-alerts-'));
const MIN = 60_000;
let clock = new Date('2026-11-22T10:00:00Z');
const ago = (minutes: number) => new Date(clock.getTime() - minutes * MIN);
const advance = (minutes: number) => {
  clock = new Date(clock.getTime() + minutes * MIN);
};
const handles: AlertsHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.stop();
});

async function start(
  db: Database,
  options: { smtpUrl?: string; events?: PoolEvents } = {},
): Promise<AlertsHandle> {
  const handle = await startAlerts({
    config: {
      smtp: { url: options.smtpUrl ?? smtp.url, from: 'Manjam <alerts@manjam.example>' },
      dataDir,
      publicHost: 'pool.test',
    },
    db,
    logger,
    events: options.events ?? new PoolEvents(),
    now: () => clock,
    settings: { intervalSeconds: 3_600, eventDelayMs: 0 },
  });
  handles.push(handle);
  return handle;
}

const mailTo = (email: string) => smtp.inbox.filter((entry) => entry.to === email).map((entry) => entry.mail);

async function alertsOf(db: Database, userId: number) {
  const rows = await db.query<{
    kind: string;
    email_status: string;
    in_app: boolean;
    email_attempts: number;
  }>('SELECT kind, email_status, in_app, email_attempts FROM alerts WHERE user_id = $1 ORDER BY id', [
    userId,
  ]);
  return rows.rows;
}

async function minerWithWorker(db: Database, username: string, options: FixtureUser = { username }) {
  const fx = new FixtureWriter(db);
  const userId = await fx.user({ ...options, username });
  const payeeId = await fx.payee('BTC', { userId });
  const workerId = await fx.worker(payeeId, 'rig1', { coin: 'BTC', lastShareAt: ago(11) });
  return { userId, payeeId, workerId, email: `${username}@example.com` };
}

describeEachDatabase('miner alerts', (db) => {
  it('emails an Arabic miner an Arabic offline alert through SMTP and lists it in the app', async () => {
    const miner = await minerWithWorker(db(), `layla_${db().kind}`, {
      username: '',
      language: 'ar',
      emailAlerts: true,
    });
    await (await start(db())).runOnce();
    const [mail] = mailTo(miner.email);
    expect(mail?.subject).toBe('منجم: العامل rig1 غير متصل');
    expect(mail?.text).toContain('لم يرسل العامل rig1 (BTC) أي حصة مقبولة منذ 10 دقائق'); // Arabic plural (few): دقائق
    expect(mail?.html).toContain('dir="rtl"');
    const [item] = await listUserNotifications(db(), miner.userId);
    expect(item).toMatchObject({ kind: 'worker-offline', title: 'العامل rig1 غير متصل', read: false });
    expect(await markUserNotificationRead(db(), miner.userId + 1_000, item?.id ?? 0)).toBe(false);
    expect(await markUserNotificationRead(db(), miner.userId, item?.id ?? 0)).toBe(true);
    expect((await listUserNotifications(db(), miner.userId, 'en'))[0]).toMatchObject({
      title: 'Worker rig1 is offline',
      read: true,
    });
    expect(await alertsOf(db(), miner.userId)).toEqual([
      { kind: 'worker-offline', email_status: 'sent', in_app: true, email_attempts: 1 },
    ]);
  });

  it('sends one offline alert and one recovery notice for a rig that flaps twice', async () => {
    const miner = await minerWithWorker(db(), `flap_${db().kind}`, { username: '', emailAlerts: true });
    const alerts = await start(db());
    await alerts.runOnce(); // silent 11 minutes: offline
    advance(1);
    await new FixtureWriter(db()).lastShare(miner.workerId, clock); // back
    await alerts.runOnce();
    advance(12); // drops again before it stayed back
    await alerts.runOnce();
    advance(1);
    await new FixtureWriter(db()).lastShare(miner.workerId, clock); // back again
    await alerts.runOnce();
    advance(6);
    await new FixtureWriter(db()).lastShare(miner.workerId, ago(0.5)); // still sharing 6 minutes later
    await alerts.runOnce();
    await alerts.runOnce();
    expect((await alertsOf(db(), miner.userId)).map((row) => row.kind)).toEqual([
      'worker-offline',
      'worker-recovered',
    ]);
    expect(mailTo(miner.email).map((mail) => mail.subject)).toEqual([
      'Manjam: Worker rig1 is offline',
      'Manjam: Worker rig1 is back online',
    ]);
  });

  it('after a restart sends the email left pending and never resends an old alert', async () => {
    const miner = await minerWithWorker(db(), `restart_${db().kind}`, { username: '', emailAlerts: true });
    const down = await start(db(), { smtpUrl: 'smtp://127.0.0.1:1' }); // nothing listens on port 1
    await down.runOnce();
    await down.stop();
    expect(await alertsOf(db(), miner.userId)).toEqual([
      { kind: 'worker-offline', email_status: 'pending', in_app: true, email_attempts: 1 },
    ]);
    expect(mailTo(miner.email)).toEqual([]);

    advance(6); // past the retry delay
    const restarted = await start(db());
    await restarted.runOnce();
    await db().query('DELETE FROM worker_alert_state WHERE worker_id = $1', [miner.workerId]); // even with the state lost
    await restarted.runOnce();
    expect(await alertsOf(db(), miner.userId)).toEqual([
      { kind: 'worker-offline', email_status: 'sent', in_app: true, email_attempts: 2 },
    ]);
    expect(mailTo(miner.email).map((mail) => mail.subject)).toEqual(['Manjam: Worker rig1 is offline']);
  });

  it('notices at once when an offline worker sends shares again', async () => {
    const events = new PoolEvents();
    const miner = await minerWithWorker(db(), `back_${db().kind}`, { username: '' });
    const alerts = await start(db(), { events });
    await alerts.runOnce();
    const status = async () =>
      (
        await db().query<{ status: string }>('SELECT status FROM worker_alert_state WHERE worker_id = $1', [
          miner.workerId,
        ])
      ).rows[0]?.status;
    expect(await status()).toBe('offline');
    await new FixtureWriter(db()).lastShare(miner.workerId, clock);
    events.emit('shares.flushed', {
      coin: 'BTC',
      payeeId: miner.payeeId,
      userId: miner.userId,
      workerIds: [miner.workerId],
      count: 3,
    });
    await vi.waitFor(async () => expect(await status()).toBe('recovering'), { timeout: 5_000 });
  });

  it('honours the notifications and email alerts toggles', async () => {
    const silent = await minerWithWorker(db(), `quiet_${db().kind}`, {
      username: '',
      notifications: false,
      emailAlerts: false,
    });
    const appOnly = await minerWithWorker(db(), `apponly_${db().kind}`, {
      username: '',
      notifications: true,
      emailAlerts: false,
    });
    await (await start(db())).runOnce();
    expect(await alertsOf(db(), silent.userId)).toEqual([
      { kind: 'worker-offline', email_status: 'skipped', in_app: false, email_attempts: 0 },
    ]);
    expect(await listUserNotifications(db(), silent.userId)).toEqual([]);
    expect(await alertsOf(db(), appOnly.userId)).toEqual([
      { kind: 'worker-offline', email_status: 'skipped', in_app: true, email_attempts: 0 },
    ]);
    expect(mailTo(silent.email)).toEqual([]);
    expect(mailTo(appOnly.email)).toEqual([]);
  });

  it('tells miners of a found block and a payee of a sent payout, once each, soon after the pool event', async () => {
    const events = new PoolEvents();
    const miner = await minerWithWorker(db(), `blocks_${db().kind}`, { username: '', emailAlerts: true });
    await new FixtureWriter(db()).lastShare(miner.workerId, ago(1));
    const idle = await new FixtureWriter(db()).user({ username: `idle_${db().kind}` });
    const alerts = await start(db(), { events });
    await alerts.runOnce();
    const hash = `${db().kind === 'pglite' ? 'aa' : 'bb'}${'0'.repeat(62)}`;
    await new FixtureWriter(db()).block('BTC', 812, hash, { foundAt: clock, finderPayeeId: miner.payeeId });
    events.emit('block.found', {
      coin: 'BTC',
      height: 812,
      hash,
      status: 'pending',
      finderUserId: miner.userId,
    });
    await vi.waitFor(
      async () =>
        expect((await alertsOf(db(), miner.userId)).map((row) => row.kind)).toContain('block-found'),
      { timeout: 5_000 },
    );
    await new FixtureWriter(db()).payout(miner.payeeId, 1_250_000n, {
      coin: 'BTC',
      status: 'sent',
      address: 'rb1qexample',
      txid: 'cd'.repeat(32),
      createdAt: clock,
    });
    events.emit('payout.sent', {
      coin: 'BTC',
      payeeId: miner.payeeId,
      userId: miner.userId,
      amount: 1_250_000n,
      txid: 'cd'.repeat(32),
    });
    await vi.waitFor(
      async () =>
        expect((await alertsOf(db(), miner.userId)).map((row) => row.kind)).toContain('payout-sent'),
      { timeout: 5_000 },
    );
    await alerts.runOnce();
    await alerts.runOnce();
    const kinds = (await alertsOf(db(), miner.userId)).map((row) => row.kind).sort();
    expect(kinds).toEqual(['block-found', 'payout-sent']);
    const items = await listUserNotifications(db(), miner.userId);
    expect(items.map((item) => item.title)).toEqual(['Payout of 0.0125 BTC sent', 'Block 812 found']);
    expect(items[1]?.body).toContain('with a share from one of your workers');
    expect(
      mailTo(miner.email)
        .map((mail) => mail.subject)
        .sort(),
    ).toEqual(['Manjam: Block 812 found', 'Manjam: Payout of 0.0125 BTC sent']);
    expect(await alertsOf(db(), idle)).toEqual([]);
  });

  it('alerts when a worker runs below half of its 24 hour average', async () => {
    const miner = await minerWithWorker(db(), `slow_${db().kind}`, { username: '' });
    await new FixtureWriter(db()).lastShare(miner.workerId, ago(0.2));
    await new FixtureWriter(db()).shareMinutes(miner.workerId, ago(24 * 60 - 1), ago(10), {
      accepted: 4,
      difficulty: 40,
    });
    await new FixtureWriter(db()).shareMinutes(miner.workerId, ago(10), clock, {
      accepted: 1,
      difficulty: 10,
    });
    await (await start(db())).runOnce();
    const item = (await listUserNotifications(db(), miner.userId)).find(
      (entry) => entry.kind === 'hashrate-drop',
    );
    expect(item?.title).toBe('Hashrate of rig1 dropped');
    expect(item?.body).toMatch(/runs at 715\.83 MH\/s, below 50% of its 24 h average of 2\.8\d GH\/s/);
  });
});
