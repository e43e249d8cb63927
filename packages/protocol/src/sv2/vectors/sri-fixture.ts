// Fixed inputs shared by record-sri.ts and the tests that replay sri-vectors.json.

/** The unix second both sides take as "now" in the recorded handshakes. */
export const SRI_NOW = 1_767_000_000;

/** The authority keypair SRI's own tests and example configs use (noise-sv2, codec-sv2 tests). */
export const SRI_TEST_AUTHORITY = {
  publicKey: '9auqWEzQDVyd2oe1JVGFLMLHZtCo2FFqZwtKA5gd9xbuEu7PH72',
  secretKey: 'mkDLTBBRxdBv998612qipDYoTK3YUrqLe8uWw7gu3iXbSrn2n',
} as const;
