import { randomInt } from 'node:crypto';

/**
 * Hands out 4-byte extranonce1 values unique across the pool process. Values are taken in order
 * from a random starting point (so two restarts do not reuse the same sequence) and returned on
 * disconnect; a reconnecting miner may ask for its previous value back (session resume), which
 * it gets only when no other session holds it.
 */
export const EXTRANONCE1_SIZE = 4;
const SPACE = 2 ** (8 * EXTRANONCE1_SIZE);

export class ExtranonceAllocator {
  private readonly inUse = new Set<number>();
  private next: number;

  constructor(start: number = randomInt(0, 2 ** 32 - 1)) {
    this.next = start % SPACE;
  }

  get size(): number {
    return this.inUse.size;
  }

  /** A fresh value; `preferred` (hex of a previous session's extranonce1) is reused when free. */
  allocate(preferred?: string): Buffer {
    const wanted = preferred === undefined ? undefined : parseExtranonce1(preferred);
    if (wanted !== undefined && !this.inUse.has(wanted)) return this.take(wanted);
    if (this.inUse.size >= SPACE) throw new Error('extranonce1 space exhausted');
    while (this.inUse.has(this.next)) this.next = (this.next + 1) % SPACE;
    const value = this.next;
    this.next = (this.next + 1) % SPACE;
    return this.take(value);
  }

  release(extranonce1: Buffer): void {
    this.inUse.delete(extranonce1.readUInt32BE(0));
  }

  private take(value: number): Buffer {
    this.inUse.add(value);
    const out = Buffer.allocUnsafe(EXTRANONCE1_SIZE);
    out.writeUInt32BE(value, 0);
    return out;
  }
}

/** Hex session id -> extranonce1 value, or undefined when it is not 8 hex digits. */
export function parseExtranonce1(hex: string): number | undefined {
  return /^[0-9a-fA-F]{8}$/.test(hex) ? Number.parseInt(hex, 16) : undefined;
}
