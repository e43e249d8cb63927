/**
 * kHeavyHash written plainly after kaspad (pow.go CalculateProofOfWorkValue, heavyhash.go
 * HeavyHash) with @noble/hashes' cSHAKE256: the reference the fast path in pow.ts is tested
 * against, and the function kaspad's own HeavyHash vector is checked with.
 */
import { cshake256 } from '@noble/hashes/sha3-addons';

const POW_DOMAIN = 'ProofOfWorkHash';
const HEAVY_DOMAIN = 'HeavyHash';

/** cSHAKE256 with kaspad's personalization, 32 bytes out (hashes.NewPoWHashWriter / NewHeavyHashWriter). */
export function kaspaCShake(domain: typeof POW_DOMAIN | typeof HEAVY_DOMAIN, data: Uint8Array): Uint8Array {
  return cshake256(data, { personalization: domain, dkLen: 32 });
}

/** matrix.HeavyHash: nibbles of `hash` times the matrix, sums >> 10, XOR back, cSHAKE "HeavyHash". */
export function kaspaHeavyHash(matrix: Uint8Array, hash: Uint8Array): Uint8Array {
  if (matrix.length !== 4096 || hash.length !== 32)
    throw new RangeError('need a 64x64 matrix and a 32-byte hash');
  const vector = new Array<number>(64);
  for (let i = 0; i < 32; i++) {
    vector[2 * i] = (hash[i] ?? 0) >> 4;
    vector[2 * i + 1] = (hash[i] ?? 0) & 0x0f;
  }
  const product = new Array<number>(64);
  for (let i = 0; i < 64; i++) {
    let sum = 0;
    for (let j = 0; j < 64; j++) sum += (matrix[i * 64 + j] ?? 0) * (vector[j] ?? 0);
    product[i] = sum >> 10;
  }
  const mixed = new Uint8Array(32);
  for (let i = 0; i < 32; i++)
    mixed[i] = (hash[i] ?? 0) ^ (((product[2 * i] ?? 0) << 4) | (product[2 * i + 1] ?? 0));
  return kaspaCShake(HEAVY_DOMAIN, mixed);
}

/** The PoW hash of prePow ‖ timestamp ‖ 32 zero bytes ‖ nonce under a matrix, the plain way. */
export function kaspaPowHashPlain(
  matrix: Uint8Array,
  prePow: Uint8Array,
  timestamp: bigint,
  nonce: bigint,
): Uint8Array {
  const message = new Uint8Array(80);
  const view = new DataView(message.buffer);
  message.set(prePow, 0);
  view.setBigUint64(32, timestamp, true);
  view.setBigUint64(72, nonce, true);
  return kaspaHeavyHash(matrix, kaspaCShake(POW_DOMAIN, message));
}
