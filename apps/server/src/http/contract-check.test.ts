import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractDrift } from './contract-check.js';
import { defineRoute } from './route.js';

const routes = [
  defineRoute({
    method: 'GET',
    url: '/api/things/:id',
    tag: 'test',
    auth: 'public',
    summary: 'A thing',
    response: z.object({ id: z.number(), name: z.string() }),
    handler: () => Promise.resolve(undefined),
  }),
];
const answer = (json: unknown, status = 200) => ({
  method: 'GET',
  path: '/api/things/7?x=1',
  status,
  contentType: 'application/json; charset=utf-8',
  json,
});

describe('contract check of API answers', () => {
  it('passes a body that is exactly what the route declares', () => {
    expect(contractDrift(routes, answer({ id: 7, name: 'seven' }))).toBeNull();
  });

  it('reports a body missing a declared field or with a wrong type', () => {
    expect(contractDrift(routes, answer({ id: '7', name: 'seven' }))).toMatch(
      /^GET \/api\/things\/:id 200: the body does not match .*id:/,
    );
    expect(contractDrift(routes, answer({ id: 7 }))).toMatch(/name:/);
  });

  it('reports a field the contract does not declare', () => {
    expect(contractDrift(routes, answer({ id: 7, name: 'seven', secret: 'x' }))).toMatch(
      /fields or values its contract schema does not declare/,
    );
  });

  it('holds every error answer to the one error shape', () => {
    expect(
      contractDrift(routes, answer({ error: { code: 'not-found', message: 'Not found' } }, 404)),
    ).toBeNull();
    expect(contractDrift(routes, answer({ error: { code: 'not-found' } }, 404))).toMatch(
      /404: the body does not match/,
    );
  });

  it('leaves non-JSON answers and unknown routes alone', () => {
    expect(contractDrift(routes, { ...answer('a,b'), contentType: 'text/csv' })).toBeNull();
    expect(contractDrift(routes, { ...answer({ any: 1 }), path: '/api/other' })).toBeNull();
  });
});
