/** Hash functions: double SHA-256 and Litecoin's scrypt proof of work. */
import { createHash, scryptSync } from 'node:crypto';
import type { Algorithm } from './coins.js';
import { sha256dInto } from './sha256-fast.js';

export function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** SHA-256(SHA-256(data)), internal byte order. */
export function sha256d(data: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(data).digest()).digest();
}

const SCRYPT_OPTIONS = { N: 1024, r: 1, p: 1 } as const;

/** Litecoin proof of work: scrypt(header, salt = header, N=1024, r=1, p=1), 32 bytes. */
export function scryptPow(header80: Buffer): Buffer {
  if (header80.length !== 80) throw new RangeError(`a block header is 80 bytes, got ${header80.length}`);
  return scryptSync(header80, header80, 32, SCRYPT_OPTIONS);
}

/** Proof-of-work hash of an 80-byte header in internal byte order. */
export function powHash(algorithm: Algorithm, header80: Buffer): Buffer {
  if (header80.length !== 80) throw new RangeError(`a block header is 80 bytes, got ${header80.length}`);
  return algorithm === 'scrypt' ? scryptPow(header80) : sha256dInto(header80, Buffer.allocUnsafe(32));
}

/** Transaction id / block hash as shown by RPC (byte-reversed hex) of internal bytes. */
export function toRpcHex(internal: Uint8Array): string {
  return Buffer.from(internal).reverse().toString('hex');
}

/** RPC (display) hex of a 32-byte hash -> internal byte order. */
export function fromRpcHex(hex: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new RangeError(`expected a 64-hex-digit hash, got "${hex}"`);
  return Buffer.from(hex, 'hex').reverse();
}
