import { randomInt } from 'node:crypto';

/**
 * Hands out extranonce1 values unique across the pool (4 bytes, or `bytes`: a dialect whose miners
 * take a shorter one, such as Kaspa's, keeps its own allocator of that size). Values are taken in order from a
 * random starting point (so two restarts do not reuse the same sequence) and returned on
 * disconnect; a reconnecting miner may ask for its previous value back (session resume), which
 * it gets only when no other session holds it.
 *
 * One Stratum process owns the whole 32-bit space. When several run side by side (`--role
 * stratum` on more than one host), each has its own `stratum.instanceId` (0-255): that byte
 * leads every value it hands out, so two processes never give two miners the same coinbase
 * space, and each still has 2^24 values (2^8 for a 2-byte allocator).
 */
export const EXTRANONCE1_SIZE = 4;

export class ExtranonceAllocator {
  private readonly inUse = new Set<number>();
  private readonly space: number;
  private readonly prefix: number;
  private next: number;

  /** `start`: the first value's place in this allocator's space (random by default). */
  constructor(
    start?: number,
    instanceId?: number,
    private readonly bytes = EXTRANONCE1_SIZE,
  ) {
    const instanceSpace = 2 ** (8 * (bytes - 1));
    this.space = instanceId === undefined ? 2 ** (8 * bytes) : instanceSpace;
    this.prefix = instanceId === undefined ? 0 : instanceId * instanceSpace;
    this.next = (start ?? randomInt(0, this.space - 1)) % this.space;
  }

  get size(): number {
    return this.inUse.size;
  }

  /** Values still free. */
  get free(): number {
    return this.space - this.inUse.size;
  }

  /** A fresh value; `preferred` (hex of a previous session's extranonce1) is reused when free. */
  allocate(preferred?: string): Buffer {
    const wanted = preferred === undefined ? undefined : parseExtranonce1(preferred);
    if (wanted !== undefined && this.owns(wanted) && !this.inUse.has(wanted)) return this.take(wanted);
    if (this.inUse.size >= this.space) throw new Error('extranonce1 space exhausted');
    while (this.inUse.has(this.prefix + this.next)) this.next = (this.next + 1) % this.space;
    const value = this.prefix + this.next;
    this.next = (this.next + 1) % this.space;
    return this.take(value);
  }

  /** True when `value` is in this process's part of the space (a resumed id from another is not). */
  private owns(value: number): boolean {
    return value - this.prefix >= 0 && value - this.prefix < this.space;
  }

  release(extranonce1: Buffer): void {
    this.inUse.delete(extranonce1.readUIntBE(0, this.bytes));
  }

  private take(value: number): Buffer {
    this.inUse.add(value);
    const out = Buffer.allocUnsafe(this.bytes);
    out.writeUIntBE(value, 0, this.bytes);
    return out;
  }
}

/** Hex session id -> extranonce1 value, or undefined when it is not 8 hex digits. */
export function parseExtranonce1(hex: string): number | undefined {
  return /^[0-9a-fA-F]{8}$/.test(hex) ? Number.parseInt(hex, 16) : undefined;
}
