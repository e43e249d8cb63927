/**
 * Monero's `cn_fast_hash`: Keccak-256 with the original Keccak padding (0x01), not SHA3-256
 * (0x06). From @noble/hashes, never hand-written.
 */
import { keccak_256 } from '@noble/hashes/sha3';

export function keccak256(...parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return keccak_256(parts[0] as Uint8Array);
  const hasher = keccak_256.create();
  for (const part of parts) hasher.update(part);
  return hasher.digest();
}
