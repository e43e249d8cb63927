/** Monero: pure protocol code (no I/O). See docs/MONERO.md for the byte-order facts. */
export * from './varint.js';
export * from './keccak.js';
export * from './tree-hash.js';
export * from './block.js';
export * from './target.js';
export * from './address.js';
