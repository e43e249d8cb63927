// Known RandomX hashes the addon's tests check against.
// RandomX's own published test vectors (tevador/RandomX src/tests/tests.cpp, hash tests 1a-1f,
// RandomX v1 as used by Monero).
export const text = (value: string): Uint8Array => new TextEncoder().encode(value);
export const hex = (value: string): Uint8Array => Uint8Array.from(Buffer.from(value, 'hex'));
export const VECTORS = [
  {
    key: text('test key 000'),
    input: text('This is a test'),
    hash: '639183aae1bf4c9a35884cb46b09cad9175f04efd7684e7262a0ac1c2f0b4e3f',
  },
  {
    key: text('test key 000'),
    input: text('Lorem ipsum dolor sit amet'),
    hash: '300a0adb47603dedb42228ccb2b211104f4da45af709cd7547cd049e9489c969',
  },
  {
    key: text('test key 000'),
    input: text('sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'),
    hash: 'c36d4ed4191e617309867ed66a443be4075014e2b061bcdaf9ce7b721d2b77a8',
  },
  {
    key: text('test key 001'),
    input: text('sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'),
    hash: 'e9ff4503201c0c2cca26d285c93ae883f9b1d30c9eb240b820756f2d5a7905fc',
  },
  {
    key: text('test key 001'),
    input: hex(
      '0b0b98bea7e805e0010a2126d287a2a0cc833d312cb786385a7c2f9de69d25537f584a9bc9977b00000000666fd8753bf61a8631f12984e3fd44f4014eca629276817b56f32e9b68bd82f416',
    ),
    hash: 'c56414121acda1713c2f2a819d8ae38aed7c80c35c2a769298d34f03833cd5f1',
  },
  {
    // The ISUB_R edge case: a 31-byte key.
    key: hex('7797373ea4633194640bf8d8c3b66724d6aa7bd2dc20e009df2f8f1710abe8'),
    input: hex(
      '1010e1eaf8cf067b37b5f0ee031ab23ed1755e090a3af4415830145853e2be3e1f6821fed84dae58d00e00da5214d6c1f2d0622e0abd51f9373d04e0b0f8e6d6514d90689721c4aac5a9bb0d',
    ),
    hash: '78af2a1864c42abce36d2e8983e13df99b2af0ce1362999af09fab004d4435a8',
  },
];

// Real monerod 0.18.0.0 on a regtest chain (seed: the genesis block id): calc_pow of a template's
// hashing blob, and the pow_hash of the block mined at height 111 (its hashing blob, nonce 0).
export const REGTEST_SEED = hex('418015bb9ae982a1975da7d79277c2705727a56894ba0fb246adaabb1f4632e3');
export const MONEROD = [
  {
    blob: hex(
      '1010c88e9cd806b07152239fc9dfed6517fc282becbbb072c4e26f886972c3432599af5035472900000000b2ac9e760d52d43d9d01f402df53174798e4ba8880094a566cae2db22151198504',
    ),
    hash: '4f918f7846edc7700983c64a6b16292e0332b3b1df2afe63362f7d444fd83067',
  },
  {
    blob: hex(
      '1010cd8e9cd806b07152239fc9dfed6517fc282becbbb072c4e26f886972c3432599af5035472900000000b9b51304d8de3cac6e4b32b07b7fa82d27df1391127ecd28334abed914d1665d04',
    ),
    hash: '2288d40da89e4df795e0f27b9539750882097a73733127a1362e19a088fde710',
  },
];
