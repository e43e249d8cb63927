import { createHash, randomBytes } from 'node:crypto';

/** An opaque bearer token (256 random bits) and the sha256 stored in its place. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
