import type { AnyRoute } from '../route.js';
import type { Services } from '../services.js';
import type { HttpDeps } from '../types.js';

export interface RouteContext {
  deps: HttpDeps;
  services: Services;
}

/** A route file: given the deps and services, the routes it declares (see route.ts defineRoute). */
export type RouteModule = (context: RouteContext) => AnyRoute[];
