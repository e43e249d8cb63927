/** Litecoin's scrypt proof of work for many 80-byte headers at once (WebAssembly SIMD, four lanes). */
export declare class ScryptBatch {
  constructor();
  /** True when the SIMD path is in use (false: node:crypto's scryptSync for every header). */
  readonly simd: boolean;
  /** The scrypt hashes of `count` 80-byte headers laid end to end: 32 bytes each, in order. */
  hashHeaders(headers: Uint8Array, count?: number): Uint8Array;
}
