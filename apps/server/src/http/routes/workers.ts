import {
  idParamsSchema,
  updateWorkerSchema,
  workerConnectionSchema,
  workerDetailSchema,
  workerListQuerySchema,
  workerListSchema,
  workerNameParamsSchema,
  workerSchema,
} from '@manjam/contract';
import { defineRoute, RawJson } from '../route.js';
import type { RouteModule } from './module.js';

export const workersRoutes: RouteModule = ({ services }) => [
  defineRoute({
    method: 'GET',
    url: '/api/workers',
    tag: 'workers',
    auth: 'user',
    query: workerListQuerySchema,
    response: workerListSchema,
    summary: 'Live Stratum workers (search by name) with totals',
    handler: async ({ auth, query }) =>
      new RawJson(
        await services.workers.listJson(
          auth.user.id,
          auth.user.username,
          query.search,
          query.page,
          query.pageSize,
        ),
      ),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/workers/:id',
    tag: 'workers',
    auth: 'user',
    params: idParamsSchema,
    notFound: { key: 'workerNotFound', code: 'worker-not-found' },
    response: workerDetailSchema,
    summary: 'One worker with its 10-minute hashrate over the last 24 hours (worker detail chart)',
    handler: ({ auth, params }) => services.workers.detail(auth.user.id, auth.user.username, params.id),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/workers/:id',
    tag: 'workers',
    auth: 'user',
    params: idParamsSchema,
    notFound: { key: 'workerNotFound', code: 'worker-not-found' },
    body: updateWorkerSchema,
    response: workerSchema,
    summary: "Rename or retype a worker (its algorithm and coin are its port's and cannot be edited)",
    handler: ({ auth, params, body }) =>
      services.workers.update(auth.user.id, auth.user.username, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/workers/:id',
    tag: 'workers',
    auth: 'user',
    params: idParamsSchema,
    notFound: { key: 'workerNotFound', code: 'worker-not-found' },
    summary: 'Hide a worker (it reappears on its next share)',
    handler: ({ auth, params }) => services.workers.hide(auth.user.id, params.id),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/workers/:name/connection',
    tag: 'workers',
    auth: 'user',
    params: workerNameParamsSchema,
    response: workerConnectionSchema,
    summary: 'Whether the worker connected and had a share accepted in the last 10 minutes (Test Connection)',
    handler: ({ auth, params }) => services.workers.connection(auth.user.id, auth.user.username, params.name),
  }),
];
