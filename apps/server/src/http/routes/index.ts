import type { RouteModule } from './module.js';
import { alertSettingsRoutes } from './alert-settings.js';
import { assistantRoutes } from './assistant.js';
import { authRoutes } from './auth.js';
import { dashboardRoutes } from './dashboard.js';
import { minersRoutes } from './miners.js';
import { monitoringRoutes } from './monitoring.js';
import { notificationsRoutes } from './notifications.js';
import { operatorRoutes } from './operator.js';
import { poolRoutes } from './pool.js';
import { revenueRoutes } from './revenue.js';
import { settingsRoutes } from './settings.js';
import { workersRoutes } from './workers.js';

export type { RouteContext, RouteModule } from './module.js';

/** Every route file. Adding one is a one-line change here. */
export const ROUTE_MODULES: readonly RouteModule[] = [
  authRoutes,
  settingsRoutes,
  dashboardRoutes,
  minersRoutes,
  workersRoutes,
  revenueRoutes,
  poolRoutes,
  assistantRoutes,
  notificationsRoutes,
  alertSettingsRoutes,
  operatorRoutes,
  monitoringRoutes,
];
