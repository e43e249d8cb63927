/** Kaspa: pure protocol code (no I/O): header and block hash, kHeavyHash, Stratum shapes, addresses. */
export * from './bytes.js';
export * from './header.js';
export * from './matrix.js';
export * from './pow.js';
export * from './heavyhash.js';
export * from './stratum.js';
export * from './address.js';
export * from './coinbase.js';
