// SV2 binary data types (spec §3.1): integers little-endian; U256 as 32 raw bytes; STR0_255 and
// B0_32/B0_255 with a U8 length, B0_64K with a U16 length; SEQ0_255/SEQ0_64K with a U8/U16 count;
// OPTION[T] is SEQ0_1[T]; BOOL is one byte 0 or 1 (other values refused); F32 is IEEE-754 LE.

/** Why a payload could not be read. Thrown only inside this module's Reader and caught by callers. */
export class Sv2DecodeError extends Error {
  constructor(
    readonly field: string,
    readonly reason: 'short' | 'too-long' | 'bad-bool' | 'bad-option',
  ) {
    super(`${field}: ${reason}`);
  }
}

export class Reader {
  private at = 0;
  private readonly view: DataView;

  constructor(private readonly b: Uint8Array) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  get remaining(): number {
    return this.b.length - this.at;
  }

  private need(n: number, field: string): number {
    if (this.at + n > this.b.length) throw new Sv2DecodeError(field, 'short');
    const start = this.at;
    this.at += n;
    return start;
  }

  u8(f: string): number {
    return this.view.getUint8(this.need(1, f));
  }
  u16(f: string): number {
    return this.view.getUint16(this.need(2, f), true);
  }
  u24(f: string): number {
    const i = this.need(3, f);
    return (this.b[i] as number) | ((this.b[i + 1] as number) << 8) | ((this.b[i + 2] as number) << 16);
  }
  u32(f: string): number {
    return this.view.getUint32(this.need(4, f), true);
  }
  u64(f: string): bigint {
    return this.view.getBigUint64(this.need(8, f), true);
  }
  f32(f: string): number {
    return this.view.getFloat32(this.need(4, f), true);
  }
  bool(f: string): boolean {
    const v = this.u8(f);
    if (v > 1) throw new Sv2DecodeError(f, 'bad-bool');
    return v === 1;
  }
  bytes(n: number, f: string): Uint8Array {
    const i = this.need(n, f);
    return this.b.slice(i, i + n);
  }
  u256(f: string): Uint8Array {
    return this.bytes(32, f);
  }
  /** U8-length bytes with an upper bound (B0_32 → 32, B0_255/STR0_255 → 255). */
  b0(max: number, f: string): Uint8Array {
    const n = this.u8(f);
    if (n > max) throw new Sv2DecodeError(f, 'too-long');
    return this.bytes(n, f);
  }
  b064k(f: string): Uint8Array {
    return this.bytes(this.u16(f), f);
  }
  str0255(f: string): string {
    return new TextDecoder().decode(this.b0(255, f));
  }
}

export class Writer {
  private buf = new Uint8Array(64);
  private view = new DataView(this.buf.buffer);
  private at = 0;

  private room(n: number): number {
    if (this.at + n > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
      next.set(this.buf.subarray(0, this.at));
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    const start = this.at;
    this.at += n;
    return start;
  }

  u8(v: number): this {
    const at = this.room(1);
    this.view.setUint8(at, v);
    return this;
  }
  u16(v: number): this {
    const at = this.room(2);
    this.view.setUint16(at, v, true);
    return this;
  }
  u24(v: number): this {
    if (v < 0 || v > 0xffffff) throw new RangeError('U24 out of range');
    const i = this.room(3);
    this.buf[i] = v & 0xff;
    this.buf[i + 1] = (v >>> 8) & 0xff;
    this.buf[i + 2] = (v >>> 16) & 0xff;
    return this;
  }
  u32(v: number): this {
    const at = this.room(4);
    this.view.setUint32(at, v, true);
    return this;
  }
  u64(v: bigint): this {
    const at = this.room(8);
    this.view.setBigUint64(at, v, true);
    return this;
  }
  f32(v: number): this {
    const at = this.room(4);
    this.view.setFloat32(at, v, true);
    return this;
  }
  bool(v: boolean): this {
    return this.u8(v ? 1 : 0);
  }
  bytes(b: Uint8Array): this {
    const at = this.room(b.length); // before reading this.buf: room() may replace it
    this.buf.set(b, at);
    return this;
  }
  u256(b: Uint8Array): this {
    if (b.length !== 32) throw new RangeError('U256 is 32 bytes');
    return this.bytes(b);
  }
  b0(max: number, b: Uint8Array): this {
    if (b.length > max) throw new RangeError(`byte string longer than ${max}`);
    return this.u8(b.length).bytes(b);
  }
  b064k(b: Uint8Array): this {
    if (b.length > 0xffff) throw new RangeError('B0_64K longer than 65535');
    return this.u16(b.length).bytes(b);
  }
  str0255(s: string): this {
    return this.b0(255, new TextEncoder().encode(s));
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.at);
  }
}

/** A U256 (little-endian on the wire, e.g. a target) as a number. */
export function u256ToBigInt(b: Uint8Array): bigint {
  let v = 0n;
  for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i] as number);
  return v;
}

export function bigIntToU256(v: bigint): Uint8Array {
  if (v < 0n || v >= 1n << 256n) throw new RangeError('U256 out of range');
  const out = new Uint8Array(32);
  let x = v;
  for (let i = 0; i < 32; i++) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}
