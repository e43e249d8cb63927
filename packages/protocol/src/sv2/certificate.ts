// The pool's authority certificate (SV2 spec §4.5.3): SIGNATURE_NOISE_MESSAGE sent inside act two,
// a BIP340 signature by the authority key over SHA-256(version ‖ valid_from ‖ not_valid_after ‖
// server static x-only key), all integers little-endian — the same bytes SRI's noise-sv2 signs
// (signature_message.rs). The authority public key travels in base58check with a u16 LE version
// prefix [1, 0] (§4.7); SRI prints the authority secret key as plain base58check of its 32 bytes.
import { schnorr } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha256';
import bs58check from 'bs58check';

export const SIGNATURE_NOISE_MESSAGE_BYTES = 74;
/** The certificate format version SRI sends today. */
export const CERTIFICATE_VERSION = 0;
/**
 * Seconds of clock difference tolerated at either end of the validity window (SRI uses 10), so a
 * miner whose clock runs a little behind the pool still accepts a certificate made this second.
 */
export const CERTIFICATE_CLOCK_LEEWAY_S = 10;
const AUTHORITY_KEY_PREFIX = Uint8Array.of(1, 0);

export interface SignatureNoiseMessage {
  version: number;
  /** unix seconds */
  validFrom: number;
  /** unix seconds */
  notValidAfter: number;
  /** BIP340 signature, 64 bytes */
  signature: Uint8Array;
}

export function encodeSignatureNoiseMessage(m: SignatureNoiseMessage): Uint8Array {
  const out = new Uint8Array(SIGNATURE_NOISE_MESSAGE_BYTES);
  out.set(signedFields(m), 0);
  out.set(m.signature, 10);
  return out;
}

export function decodeSignatureNoiseMessage(b: Uint8Array): SignatureNoiseMessage | undefined {
  if (b.length !== SIGNATURE_NOISE_MESSAGE_BYTES) return undefined;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return {
    version: view.getUint16(0, true),
    validFrom: view.getUint32(2, true),
    notValidAfter: view.getUint32(6, true),
    signature: b.slice(10, 74),
  };
}

function signedFields(m: Omit<SignatureNoiseMessage, 'signature'>): Uint8Array {
  const out = new Uint8Array(10);
  const view = new DataView(out.buffer);
  view.setUint16(0, m.version, true);
  view.setUint32(2, m.validFrom, true);
  view.setUint32(6, m.notValidAfter, true);
  return out;
}

/** m = SHA-256(version ‖ valid_from ‖ not_valid_after ‖ server_public_key x-only). */
export function certificateDigest(
  m: Omit<SignatureNoiseMessage, 'signature'>,
  serverXonly: Uint8Array,
): Uint8Array {
  const buf = new Uint8Array(42);
  buf.set(signedFields(m), 0);
  buf.set(serverXonly, 10);
  return sha256(buf);
}

/** Sign a certificate for the server's static key with the authority secret key. */
export function signCertificate(
  fields: { validFrom: number; notValidAfter: number; version?: number },
  serverXonly: Uint8Array,
  authoritySecretKey: Uint8Array,
): SignatureNoiseMessage {
  const m = {
    version: fields.version ?? CERTIFICATE_VERSION,
    validFrom: fields.validFrom,
    notValidAfter: fields.notValidAfter,
  };
  const signature = schnorr.sign(certificateDigest(m, serverXonly), authoritySecretKey);
  return { ...m, signature };
}

export type CertificateCheck = 'ok' | 'not-yet-valid' | 'expired' | 'bad-signature';

/** What an initiator decides about the certificate at unix second `now`. */
export function checkCertificate(
  m: SignatureNoiseMessage,
  serverXonly: Uint8Array,
  authorityXonly: Uint8Array,
  now: number,
): CertificateCheck {
  if (now + CERTIFICATE_CLOCK_LEEWAY_S < m.validFrom) return 'not-yet-valid';
  if (now - CERTIFICATE_CLOCK_LEEWAY_S > m.notValidAfter) return 'expired';
  let good = false;
  try {
    good = schnorr.verify(m.signature, certificateDigest(m, serverXonly), authorityXonly);
  } catch {
    good = false; // a public key that is not on the curve verifies nothing
  }
  return good ? 'ok' : 'bad-signature';
}

/** The authority public key as pools print it: base58check([1, 0] ‖ x-only key). */
export function encodeAuthorityPublicKey(xonly: Uint8Array): string {
  const payload = new Uint8Array(34);
  payload.set(AUTHORITY_KEY_PREFIX, 0);
  payload.set(xonly, 2);
  return bs58check.encode(payload);
}

/** The 32-byte x-only key of a printed authority public key, or undefined when it is not one. */
export function decodeAuthorityPublicKey(text: string): Uint8Array | undefined {
  const payload = bs58check.decodeUnsafe(text.trim());
  if (payload?.length !== 34 || payload[0] !== 1 || payload[1] !== 0) return undefined;
  const xonly = payload.slice(2);
  try {
    schnorr.utils.lift_x(BigInt('0x' + Buffer.from(xonly).toString('hex')));
  } catch {
    return undefined;
  }
  return xonly;
}

export function encodeAuthoritySecretKey(secretKey: Uint8Array): string {
  return bs58check.encode(secretKey);
}

export function decodeAuthoritySecretKey(text: string): Uint8Array | undefined {
  const payload = bs58check.decodeUnsafe(text.trim());
  if (payload?.length !== 32) return undefined;
  try {
    schnorr.getPublicKey(payload);
  } catch {
    return undefined;
  }
  return Uint8Array.from(payload);
}
