import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/support/db.js';
import { FixtureWriter } from '../../../test/support/db/fixtures.js';
import { alertSettingsSchema } from '../../config/alerts.js';
import { SecretBox } from '../auth/secret-box.js';
import type { Database } from '../../db/types.js';
import { PoolEvents } from '../../events.js';
import { startAlerts, type AlertsHandle } from './loop.js';
import { setAccountThresholds, setWorkerAlerts } from './thresholds.js';

// Issue 27: the alerts loop watches each worker with its own thresholds (or the account default),
// and not at all when its owner turned its alerts off.

const MIN = 60_000;
const clock = new Date('2026-11-22T10:00:00Z');
const ago = (minutes: number) => new Date(clock.getTime() - minutes * MIN);
const settings = alertSettingsSchema.parse({});
const handles: AlertsHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.stop();
});

async function pass(db: Database): Promise<void> {
  const handle = await startAlerts({
    config: { smtp: undefined, dataDir: mkdtempSync(join(tmpdir(), 'manjam-thr-')), publicHost: 'pool.test' },
    db,
    logger: pino({ level: 'silent' }),
    events: new PoolEvents(),
    now: () => clock,
    mailer: null,
    push: null,
    settings: { intervalSeconds: 3_600, eventDelayMs: 0 },
  });
  handles.push(handle);
  await handle.runOnce();
}

async function offlineAlerts(db: Database, userId: number): Promise<string[]> {
  const rows = await db.query<{ worker: string }>(
    `SELECT payload->>'worker' AS worker FROM alerts WHERE user_id = $1 AND kind = 'worker-offline' ORDER BY worker`,
    [userId],
  );
  return rows.rows.map((row) => row.worker);
}

describeEachDatabase('per-worker alert thresholds in the alerts loop', (db) => {
  it("alerts each worker by its own offline minutes, the account default's, or not at all when off", async () => {
    const fx = new FixtureWriter(db());
    const userId = await fx.user({ username: `thr_${db().kind}` });
    const payeeId = await fx.payee('LTC', { userId });
    const quick = await fx.worker(payeeId, 'quick', { coin: 'LTC', lastShareAt: ago(4) });
    await fx.worker(payeeId, 'patient', { coin: 'LTC', lastShareAt: ago(25) });
    const muted = await fx.worker(payeeId, 'muted', { coin: 'LTC', lastShareAt: ago(120) });
    const long = await fx.worker(payeeId, 'long', { coin: 'LTC', lastShareAt: ago(45) });
    await setAccountThresholds({ db: db(), box: new SecretBox('thresholds test key') }, settings, userId, {
      offlineMinutes: 30,
      dropPercent: null,
    });
    await setWorkerAlerts(db(), settings, userId, quick, {
      off: false,
      offlineMinutes: 3,
      dropPercent: null,
    });
    await setWorkerAlerts(db(), settings, userId, muted, {
      off: true,
      offlineMinutes: null,
      dropPercent: null,
    });
    await setWorkerAlerts(db(), settings, userId, long, {
      off: false,
      offlineMinutes: 60,
      dropPercent: null,
    });
    await pass(db());
    // quick: 4 min silent > its 3; patient: 25 < the account's 30; muted: off; long: 45 < its own 60.
    expect(await offlineAlerts(db(), userId)).toEqual(['quick']);
  });
});
