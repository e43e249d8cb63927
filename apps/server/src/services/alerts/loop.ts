import type { Config } from '../../config/index.js';
import type { Database } from '../../db/types.js';
import type { PoolEvents } from '../../events.js';
import type { Logger } from '../../logger.js';
import { secretBoxFor, type SecretBox } from '../auth/secret-box.js';
import { createMailer, type Mailer } from './mailer.js';
import { createPushSender, loadVapidKeys, vapidSubject, type PushSender } from './push.js';
import {
  checkBlocks,
  checkPayouts,
  checkWorkers,
  deliverEmails,
  deliverPushes,
  type AlertContext,
  type RunCounts,
} from './raise.js';
import { alertSettingsSchema, type AlertSettingsInput } from '../../config/alerts.js';
import { deliverWebhooks, sealLegacyWebhooks } from './webhook.js';
import type { Resolve } from '../outbound/policy.js';

export interface AlertsDeps {
  /** auth.secret (absent: the key under dataDir) opens the webhook URLs the api process sealed. */
  config: Pick<Config, 'smtp' | 'dataDir' | 'publicHost'> & { auth?: Pick<Config['auth'], 'secret'> };
  db: Database;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  events: PoolEvents;
  /** Overrides of the alert tuning (defaults: 10 min offline, 50 % hashrate drop, ...). */
  settings?: AlertSettingsInput;
  /** Test seams. */
  now?: () => Date;
  mailer?: Mailer | null;
  /** Browser push; default: VAPID keys under dataDir. null turns push off. */
  push?: PushSender | null;
  /** How webhook and push endpoint hosts are resolved (default: the system resolver). */
  resolve?: Resolve;
  /** Opens and seals webhook URLs (default: secretBoxFor(config), the api process's box). */
  box?: SecretBox;
}

export interface AlertsHandle {
  /** One full pass: detect and raise alerts, then send pending emails. Calls queue; passes never overlap. */
  runOnce(): Promise<RunCounts>;
  stop(): Promise<void>;
}

/**
 * The alerts loop: a pass every `intervalSeconds`, and soon after a found block, a sent payout or
 * shares from a worker that is offline (coalesced). All state lives in the database, so a restart resends nothing and
 * loses no pending email.
 */
export async function startAlerts(deps: AlertsDeps): Promise<AlertsHandle> {
  const settings = alertSettingsSchema.parse(deps.settings ?? {});
  // Fails at once, not on the first pass, when the alerts migration has not been applied.
  await deps.db.query('SELECT 1 FROM worker_alert_state LIMIT 1');
  const mailer =
    deps.mailer !== undefined ? deps.mailer : deps.config.smtp ? createMailer(deps.config.smtp) : null;
  const push =
    deps.push !== undefined
      ? deps.push
      : createPushSender(
          loadVapidKeys(deps.config.dataDir),
          vapidSubject(deps.config.smtp?.from, deps.config.publicHost),
          settings.webhook,
          deps.resolve,
        );
  const ctx: AlertContext = {
    db: deps.db,
    settings,
    now: deps.now ?? (() => new Date()),
    mailer,
    push,
    dayCache: null,
    logger: deps.logger,
  };
  const webhookCtx = {
    db: deps.db,
    box: deps.box ?? secretBoxFor(deps.config),
    settings: settings.webhook,
    now: ctx.now,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
    onFailure: (alertId: number, attempt: number, final: boolean, err: string) =>
      deps.logger.warn({ alertId, attempt, final, err }, 'alert webhook failed'),
  };
  let tail: Promise<unknown> = Promise.resolve();
  let backgroundBusy = false;
  /** Workers offline after the last pass: flushed shares from one of them start a pass soon. */
  let offlineWorkers = new Set<number>();
  let stopped = false;
  let eventTimer: NodeJS.Timeout | null = null;

  async function pass(): Promise<RunCounts> {
    const workers = await checkWorkers(ctx);
    offlineWorkers = new Set(workers.offline);
    const raised = workers.raised + (await checkBlocks(ctx)) + (await checkPayouts(ctx));
    const email = await deliverEmails(ctx);
    const pushed = await deliverPushes(ctx);
    // URLs written in clear before migration 0700 are sealed here, every pass (the first runs at
    // start): a no-op index probe once none is left (webhook.ts says why every pass).
    const sealed = await sealLegacyWebhooks(webhookCtx.db, webhookCtx.box);
    if (sealed > 0) deps.logger.info({ sealed }, 'alert webhook URLs sealed at rest');
    const hooks = await deliverWebhooks(webhookCtx);
    const counts = {
      raised,
      emailed: email.sent,
      emailFailures: email.failed,
      pushed,
      webhooked: hooks.sent,
      webhookFailures: hooks.failed,
    };
    if (Object.values(counts).some((count) => count > 0)) deps.logger.info(counts, 'alerts pass');
    return counts;
  }

  /** Passes never overlap: a new one starts after the one in progress. */
  function runOnce(): Promise<RunCounts> {
    const next = tail.catch(() => undefined).then(pass);
    tail = next;
    return next;
  }

  let backgroundAgain = false;
  /** A pass in the background; asked for while one runs, it runs once more afterwards. */
  function runInBackground(): void {
    if (stopped) return;
    if (backgroundBusy) {
      backgroundAgain = true;
      return;
    }
    backgroundBusy = true;
    runOnce()
      .catch((error: unknown) => deps.logger.error({ err: (error as Error).message }, 'alerts pass failed'))
      .finally(() => {
        backgroundBusy = false;
        if (backgroundAgain) {
          backgroundAgain = false;
          runInBackground();
        }
      });
  }

  function kick(): void {
    if (stopped || eventTimer) return;
    eventTimer = setTimeout(() => {
      eventTimer = null;
      runInBackground();
    }, settings.eventDelayMs);
  }

  const unsubscribe = [
    deps.events.on('block.found', kick),
    deps.events.on('payout.sent', kick),
    deps.events.on('shares.flushed', (event) => {
      if (event.workerIds.some((id) => offlineWorkers.has(id))) kick();
    }),
  ];
  const interval = setInterval(runInBackground, settings.intervalSeconds * 1000);
  interval.unref();
  runInBackground();

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(interval);
      if (eventTimer) clearTimeout(eventTimer);
      for (const off of unsubscribe) off();
      await tail.catch(() => undefined);
      if (deps.mailer === undefined) mailer?.close();
    },
  };
}
