/**
 * The coinbase payload kaspad writes into every block (domain/consensus/processes/coinbasemanager,
 * payload.go): blue score (u64 LE), the block's own subsidy in sompi (u64 LE), the miner's script
 * public key version (u16 LE), its length (u8) and bytes, then the miner's extra data. The subsidy
 * is what the block itself earns once a chain block merges it as blue (plus its fees); the
 * coinbase outputs pay the blocks it merges, not the block itself.
 */
import { hexToBytes } from './bytes.js';

export interface KaspaCoinbasePayload {
  blueScore: bigint;
  /** Sompi. */
  subsidy: bigint;
  scriptVersion: number;
  script: Uint8Array;
  extraData: Uint8Array;
}

const FIXED_BYTES = 8 + 8 + 2 + 1;

/** Reads a coinbase payload (bytes, or hex as kaspad's API gives it). */
export function parseKaspaCoinbasePayload(payload: Uint8Array | string): KaspaCoinbasePayload {
  const bytes = typeof payload === 'string' ? hexToBytes(payload, 'coinbase payload') : payload;
  if (bytes.length < FIXED_BYTES)
    throw new RangeError(`coinbase payload of ${bytes.length} bytes is shorter than ${FIXED_BYTES}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const scriptLength = bytes[FIXED_BYTES - 1] ?? 0;
  if (bytes.length < FIXED_BYTES + scriptLength)
    throw new RangeError(`coinbase payload ends inside its ${scriptLength}-byte script`);
  return {
    blueScore: view.getBigUint64(0, true),
    subsidy: view.getBigUint64(8, true),
    scriptVersion: view.getUint16(16, true),
    script: bytes.slice(FIXED_BYTES, FIXED_BYTES + scriptLength),
    extraData: bytes.slice(FIXED_BYTES + scriptLength),
  };
}
