import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The built web app's directory when it exists (config.http.webDist, relative to the working directory). */
export function webRoot(webDist: string): string | null {
  if (!webDist) return null;
  const root = resolve(webDist);
  return existsSync(resolve(root, 'index.html')) && statSync(root).isDirectory() ? root : null;
}

export async function registerWeb(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    wildcard: true,
    index: ['index.html'],
    // Hashed assets are immutable; index.html must always be revalidated.
    setHeaders(res, path) {
      res.header(
        'cache-control',
        /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
}

/** SPA fallback: a non-API GET that accepts HTML gets index.html (the client router takes over). */
export function wantsSpa(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? '';
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !path.startsWith('/api') &&
    path !== '/metrics' &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

export function sendSpa(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
}
