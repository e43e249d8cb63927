// Stratum V2: Noise NX handshake and transport, authority certificate, frames and messages.
export * from './binary.js';
export * from './certificate.js';
export * from './cipher-state.js';
export * from './ellswift.js';
export * from './frame.js';
export * from './messages.js';
export * from './noise.js';
export * from './transport.js';
