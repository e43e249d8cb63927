import type { AnyRoute } from '../route.js';
import type { Services } from '../services.js';
import type { HttpDeps } from '../types.js';
import { assistantRoutes } from './assistant.js';
import { authRoutes } from './auth.js';
import { dashboardRoutes } from './dashboard.js';
import { minersRoutes } from './miners.js';
import { notificationsRoutes } from './notifications.js';
import { poolRoutes } from './pool.js';
import { revenueRoutes } from './revenue.js';
import { settingsRoutes } from './settings.js';
import { workersRoutes } from './workers.js';

export interface RouteContext {
  deps: HttpDeps;
  services: Services;
}

/** A route file: given the deps and services, the routes it declares (see route.ts defineRoute). */
export type RouteModule = (context: RouteContext) => AnyRoute[];

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
];
