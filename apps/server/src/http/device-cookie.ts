import type { FastifyReply, FastifyRequest } from 'fastify';

/** The HttpOnly cookie that carries a known-device value (services/auth/devices.ts). */
export const DEVICE_COOKIE = 'manjam_device';

/** The device value a request carries, or null. */
export function readDeviceCookie(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === DEVICE_COOKIE) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/**
 * Sets the device cookie: HttpOnly (no script reads it), SameSite=Strict, sent only to the
 * sign-in routes, Secure when the request came over https.
 */
export function setDeviceCookie(reply: FastifyReply, value: string, maxAgeSeconds: number): void {
  const secure = reply.request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${DEVICE_COOKIE}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=/api/auth; HttpOnly; SameSite=Strict${secure}`,
  );
}
