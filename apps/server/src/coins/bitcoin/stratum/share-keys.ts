/**
 * The block hashes accepted for one job (duplicate detection, Stratum error 22). Each hash is kept
 * as its first 12 bytes in internal byte order — the low-order 96 bits, random even for a hash
 * under a share target (the zeros are at the other end) — in one open-addressing table of 32-bit
 * words filled up to three quarters: 16 to 32 bytes a share and no object per share for the
 * garbage collector, where a Set of 32-character strings cost 69 bytes a share (measured) and an
 * allocation each. Two shares of a job collide with probability n^2 / 2^97 (about 1e-17 at a
 * million shares).
 */
const WORDS = 3;
const MIN_SLOTS = 64;

export class ShareKeySet {
  private table: Uint32Array;
  private mask: number;
  private count = 0;

  constructor(slots = MIN_SLOTS) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(MIN_SLOTS, slots)));
    this.table = new Uint32Array(size * WORDS);
    this.mask = size - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes held by the table (what the set costs in memory). */
  get bytes(): number {
    return this.table.byteLength;
  }

  has(hash: Uint8Array): boolean {
    checkLength(hash);
    const b = word(hash, 4);
    const c = word(hash, 8);
    const a = word(hash, 0) || (b === 0 && c === 0 ? 1 : 0);
    return this.find(this.table, this.mask, a, b, c) < 0;
  }

  /** Adds a hash; false when it was already there. */
  add(hash: Uint8Array): boolean {
    checkLength(hash);
    const b = word(hash, 4);
    const c = word(hash, 8);
    // An all-zero key is the empty mark: it is kept as 1,0,0.
    const a = word(hash, 0) || (b === 0 && c === 0 ? 1 : 0);
    const at = this.find(this.table, this.mask, a, b, c);
    if (at < 0) return false;
    this.table[at] = a;
    this.table[at + 1] = b;
    this.table[at + 2] = c;
    this.count++;
    if (this.count * 4 > (this.mask + 1) * 3) this.grow();
    return true;
  }

  /** Forgets every hash and gives the memory back. */
  clear(): void {
    this.table = new Uint32Array(MIN_SLOTS * WORDS);
    this.mask = MIN_SLOTS - 1;
    this.count = 0;
  }

  /** Offset of the empty slot for the key, or -1 when the key is present. */
  private find(table: Uint32Array, mask: number, a: number, b: number, c: number): number {
    for (let slot = (a ^ Math.imul(b, 0x9e3779b1)) & mask; ; slot = (slot + 1) & mask) {
      const at = slot * WORDS;
      const x = table[at] as number;
      const y = table[at + 1] as number;
      const z = table[at + 2] as number;
      if (x === 0 && y === 0 && z === 0) return at;
      if (x === a && y === b && z === c) return -1;
    }
  }

  private grow(): void {
    const old = this.table;
    const mask = (this.mask + 1) * 2 - 1;
    const table = new Uint32Array((mask + 1) * WORDS);
    for (let at = 0; at < old.length; at += WORDS) {
      const a = old[at] as number;
      const b = old[at + 1] as number;
      const c = old[at + 2] as number;
      if (a === 0 && b === 0 && c === 0) continue;
      const to = this.find(table, mask, a, b, c);
      table[to] = a;
      table[to + 1] = b;
      table[to + 2] = c;
    }
    this.table = table;
    this.mask = mask;
  }
}

function checkLength(hash: Uint8Array): void {
  if (hash.length < WORDS * 4) throw new RangeError(`a share hash has 32 bytes, got ${hash.length}`);
}

/** The little-endian 32-bit word at `offset`. */
function word(hash: Uint8Array, offset: number): number {
  return (
    ((hash[offset] as number) |
      ((hash[offset + 1] as number) << 8) |
      ((hash[offset + 2] as number) << 16) |
      ((hash[offset + 3] as number) << 24)) >>>
    0
  );
}
