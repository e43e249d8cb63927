// Fixed inputs of the tests that replay sri-vectors.json: message bytes serialized by SRI's crates
// (binary_sv2 7, mining_sv2 12, common_messages_sv2 9) and two Noise sessions between this package
// and SRI's noise_sv2 2.0 (SRI responding to us, then SRI initiating to us), recorded on 2026-11-28
// by a throwaway harness linking SRI's crates. The harness is not kept: the project's own code stays
// TypeScript; SRI's real translator is the live peer of the V2 listener's integration tests.

/** The unix second both sides take as "now" in the recorded handshakes. */
export const SRI_NOW = 1_767_000_000;

/** The authority keypair SRI's own tests and example configs use (noise-sv2, codec-sv2 tests). */
export const SRI_TEST_AUTHORITY = {
  publicKey: '9auqWEzQDVyd2oe1JVGFLMLHZtCo2FFqZwtKA5gd9xbuEu7PH72',
  secretKey: 'mkDLTBBRxdBv998612qipDYoTK3YUrqLe8uWw7gu3iXbSrn2n',
} as const;
