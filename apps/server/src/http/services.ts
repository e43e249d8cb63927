import { AccountsService } from '../services/accounts/accounts-service.js';
import { AccountMail } from '../services/accounts/account-mail.js';
import { EmailChange } from '../services/accounts/email-change.js';
import { PasswordReset } from '../services/accounts/password-reset.js';
import { Registration } from '../services/accounts/registration.js';
import { createMailer } from '../services/alerts/mailer.js';
import { AuthService } from '../services/auth/auth-service.js';
import { secretBoxFor, type SecretBox } from '../services/auth/secret-box.js';
import { DashboardService } from '../services/dashboard/dashboard-service.js';
import { ApiTokensService } from '../services/monitoring/api-tokens.js';
import { WatchLinksService } from '../services/monitoring/watch-links.js';
import { MinersService } from '../services/miners/miners-service.js';
import { RigClient } from '../services/rig/rig-client.js';
import { OperatorService } from '../services/operator/operator-service.js';
import { SearchService } from '../services/search/search-service.js';
import { SettingsService } from '../services/settings/settings-service.js';
import { PoolService } from '../services/stats/pool-service.js';
import { RevenueService } from '../services/stats/revenue-service.js';
import { moneyClockOf } from '../services/shared/unsettled.js';
import { ConnectedWorkers } from '../services/workers/connected.js';
import { WorkersService } from '../services/workers/workers-service.js';
import type { HttpDeps } from './types.js';

export interface Services {
  now: () => number;
  box: SecretBox;
  auth: AuthService;
  accounts: AccountsService;
  /** Password reset by email (smtp set). */
  passwordReset: PasswordReset;
  settings: SettingsService;
  workers: WorkersService;
  miners: MinersService;
  dashboard: DashboardService;
  revenue: RevenueService;
  pool: PoolService;
  search: SearchService;
  operator: OperatorService;
  /** Read-only API tokens and public watcher links. */
  apiTokens: ApiTokensService;
  watchLinks: WatchLinksService;
  /** Stops the event subscriptions that keep caches fresh. */
  close(): void;
}

/** Builds the services the routes call, and wires pool events into their caches. */
export function createServices(deps: HttpDeps): Services {
  const { config, db, logger, events } = deps;
  const now = deps.now ?? Date.now;
  const onError = (error: unknown) => logger.error({ err: error }, 'background refresh failed');
  const box = secretBoxFor(config);
  const auth = new AuthService({ db, config, box, now, onError });
  const mailer = config.smtp ? createMailer(config.smtp) : null;
  const mailError = (error: unknown) => logger.warn({ err: error }, 'account email not sent');
  const mail = mailer && new AccountMail(mailer, config, now, mailError);
  const connected = new ConnectedWorkers(events, now);
  const workers = new WorkersService({ db, now, onError, connected });
  const settings = new SettingsService(db, config, auth, box, now);
  const dashboard = new DashboardService({
    db,
    now,
    onError,
    money: moneyClockOf(config),
    hashrates: (userId) => workers.snapshot(userId),
  });
  const rig = new RigClient({
    baseUrl: config.rigManagement.baseUrl,
    timeoutMs: config.rigManagement.timeoutMs,
  });
  const unsubscribe = [
    events.on('shares.flushed', (e) => {
      if (e.userId === null) return;
      workers.sharesArrived(e.userId);
      dashboard.sharesArrived(e.userId);
    }),
    events.on('payout.sent', (e) => {
      if (e.userId !== null) dashboard.moneyChanged(e.userId);
    }),
  ];
  const pool = new PoolService(db, config, deps.pool, now, onError);
  const revenue = new RevenueService(db, now, moneyClockOf(config));
  const apiTokens = new ApiTokensService({
    db,
    auth,
    now,
    requestsPerMinute: config.http.apiTokens.requestsPerMinute,
  });
  return {
    now,
    box,
    auth,
    accounts: new AccountsService(
      db,
      workers,
      new Registration({ db, config, mail, now }),
      new EmailChange({ db, config, auth, mail, now }),
    ),
    passwordReset: new PasswordReset({ db, config, auth, mail, now }),
    settings,
    workers,
    miners: new MinersService(db, workers),
    dashboard,
    revenue,
    apiTokens,
    watchLinks: new WatchLinksService({ db, auth, box, workers, revenue, now }),
    pool,
    operator: new OperatorService({
      db,
      logger,
      pool,
      health: deps.health,
      config,
      now,
      ...(deps.bans ? { bans: deps.bans } : {}),
    }),
    search: new SearchService(db, settings, rig, box, logger, now),
    close: () => {
      unsubscribe.forEach((off) => off());
      connected.close();
      mailer?.close();
    },
  };
}
