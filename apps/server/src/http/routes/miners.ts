import {
  createMinerSchema,
  idParamsSchema,
  minerListQuerySchema,
  minerListSchema,
  minerSchema,
  updateMinerSchema,
} from '@manjam/contract';
import { defineRoute } from '../route.js';
import type { RouteModule } from './module.js';

export const minersRoutes: RouteModule = ({ services }) => [
  defineRoute({
    method: 'GET',
    url: '/api/miners',
    tag: 'miners',
    auth: 'user',
    query: minerListQuerySchema,
    response: minerListSchema,
    summary:
      'Declared miners with live status, hashrate, the workers that mine for each and last seen; the online workers no declared miner claims',
    handler: ({ auth, query }) => services.miners.list(auth.user.id, query.type),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/miners',
    tag: 'miners',
    auth: 'user',
    status: 201,
    body: createMinerSchema,
    response: minerSchema,
    summary: 'Declare a miner',
    handler: ({ auth, body }) => services.miners.create(auth.user.id, body),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/miners/:id',
    tag: 'miners',
    auth: 'user',
    params: idParamsSchema,
    notFound: { key: 'minerNotFound', code: 'miner-not-found' },
    body: updateMinerSchema,
    response: minerSchema,
    summary: 'Edit a miner',
    handler: ({ auth, params, body }) => services.miners.update(auth.user.id, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/miners/:id',
    tag: 'miners',
    auth: 'user',
    params: idParamsSchema,
    notFound: { key: 'minerNotFound', code: 'miner-not-found' },
    summary: 'Delete a miner',
    handler: ({ auth, params }) => services.miners.delete(auth.user.id, params.id),
  }),
];
