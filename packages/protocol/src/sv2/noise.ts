// Noise_NX_Secp256k1+EllSwift_ChaChaPoly_SHA256, both roles, as SV2 §4.5 lays it out:
//   act one  (initiator → responder), 64 bytes: e
//   act two  (responder → initiator), 234 bytes: e (64), ee, s (64+16), es, SIGNATURE_NOISE_MESSAGE
//            (74+16). The spec's table says 170, a sum left from 32-byte keys; SRI sends 234
//            (noise-sv2 INITIATOR_EXPECTED_HANDSHAKE_MESSAGE_SIZE) and so does this.
// then both sides split the chaining key into two CipherStates (c1: initiator → responder).
// The initiator refuses act two unless the certificate is signed by the authority key it was given.
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha256';
import {
  checkCertificate,
  decodeSignatureNoiseMessage,
  encodeSignatureNoiseMessage,
  SIGNATURE_NOISE_MESSAGE_BYTES,
  type CertificateCheck,
  type SignatureNoiseMessage,
} from './certificate.js';
import { CipherState, MAC_BYTES } from './cipher-state.js';
import { ELLSWIFT_BYTES, ellswiftDecode, ellswiftKeypair, v2Ecdh, type EllswiftKeypair } from './ellswift.js';

export const NOISE_PROTOCOL_NAME = 'Noise_NX_Secp256k1+EllSwift_ChaChaPoly_SHA256';
export const ACT_ONE_BYTES = ELLSWIFT_BYTES;
export const ACT_TWO_BYTES =
  ELLSWIFT_BYTES + ELLSWIFT_BYTES + MAC_BYTES + SIGNATURE_NOISE_MESSAGE_BYTES + MAC_BYTES;

/** The two directions of an established session. */
export interface NoiseSession {
  encryptor: CipherState;
  decryptor: CipherState;
  /** final handshake hash, the same on both sides */
  handshakeHash: Uint8Array;
}

export type HandshakeError =
  | { code: 'bad-length'; got: number; want: number }
  | { code: 'bad-mac' }
  | { code: 'bad-certificate'; check: Exclude<CertificateCheck, 'ok'> };

const EMPTY = new Uint8Array(0);

function hkdf2(ck: Uint8Array, ikm: Uint8Array): [Uint8Array, Uint8Array] {
  const temp = hmac(sha256, ck, ikm);
  const out1 = hmac(sha256, temp, Uint8Array.of(1));
  const in2 = new Uint8Array(33);
  in2.set(out1, 0);
  in2[32] = 2;
  return [out1, hmac(sha256, temp, in2)];
}

/** h, ck and the handshake cipher (Noise's SymmetricState). */
class SymmetricState {
  ck: Uint8Array;
  h: Uint8Array;
  readonly cipher = new CipherState();

  constructor() {
    // The name is longer than 32 bytes, so ck = HASH(name) and h = HASH(ck) (§4.5.1).
    this.ck = sha256(new TextEncoder().encode(NOISE_PROTOCOL_NAME));
    this.h = sha256(this.ck);
  }

  mixHash(data: Uint8Array): void {
    const buf = new Uint8Array(32 + data.length);
    buf.set(this.h, 0);
    buf.set(data, 32);
    this.h = sha256(buf);
  }

  mixKey(ikm: Uint8Array): void {
    const [ck, k] = hkdf2(this.ck, ikm);
    this.ck = ck;
    this.cipher.initializeKey(k);
  }

  encryptAndHash(plaintext: Uint8Array): Uint8Array {
    const ct = this.cipher.encryptWithAd(this.h, plaintext);
    this.mixHash(ct);
    return ct;
  }

  decryptAndHash(ciphertext: Uint8Array): Uint8Array | undefined {
    const pt = this.cipher.decryptWithAd(this.h, ciphertext);
    if (pt !== undefined) this.mixHash(ciphertext);
    return pt;
  }

  split(): [CipherState, CipherState] {
    const [k1, k2] = this.splitKeys();
    return [new CipherState(k1), new CipherState(k2)];
  }

  /** The two keys split() starts its CipherStates with (c1: initiator → responder). */
  splitKeys(): [Uint8Array, Uint8Array] {
    return hkdf2(this.ck, EMPTY);
  }
}

export interface InitiatorResult {
  session: NoiseSession;
  /** the server's static key, x-only */
  serverXonly: Uint8Array;
  certificate: SignatureNoiseMessage;
}

/** The miner's side. Give it the pool's authority key (x-only, 32 bytes). */
export class NoiseInitiator {
  private readonly state = new SymmetricState();
  private readonly e: EllswiftKeypair;

  constructor(
    private readonly authorityXonly: Uint8Array,
    opts: { ephemeral?: EllswiftKeypair; now?: () => number } = {},
  ) {
    this.e = opts.ephemeral ?? ellswiftKeypair();
    this.now = opts.now ?? ((): number => Math.floor(Date.now() / 1000));
  }

  private readonly now: () => number;

  actOne(): Uint8Array {
    this.state.mixHash(this.e.ellswift);
    this.state.encryptAndHash(EMPTY); // k is empty: this only mixes the empty payload into h
    return this.e.ellswift.slice();
  }

  actTwo(msg: Uint8Array): { ok: true; value: InitiatorResult } | { ok: false; error: HandshakeError } {
    if (msg.length !== ACT_TWO_BYTES) {
      return { ok: false, error: { code: 'bad-length', got: msg.length, want: ACT_TWO_BYTES } };
    }
    const s = this.state;
    const re = msg.subarray(0, ELLSWIFT_BYTES);
    s.mixHash(re);
    s.mixKey(v2Ecdh(this.e.secretKey, this.e.ellswift, re, true));
    const rs = s.decryptAndHash(msg.subarray(ELLSWIFT_BYTES, 2 * ELLSWIFT_BYTES + MAC_BYTES));
    if (!rs) return { ok: false, error: { code: 'bad-mac' } };
    const serverXonly = ellswiftDecode(rs);
    s.mixKey(v2Ecdh(this.e.secretKey, this.e.ellswift, rs, true, serverXonly));
    const sigPlain = s.decryptAndHash(msg.subarray(2 * ELLSWIFT_BYTES + MAC_BYTES));
    if (!sigPlain) return { ok: false, error: { code: 'bad-mac' } };
    const certificate = decodeSignatureNoiseMessage(sigPlain) as SignatureNoiseMessage;
    const check = checkCertificate(certificate, serverXonly, this.authorityXonly, this.now());
    if (check !== 'ok') return { ok: false, error: { code: 'bad-certificate', check } };
    const [c1, c2] = s.split();
    return {
      ok: true,
      value: {
        session: { encryptor: c1, decryptor: c2, handshakeHash: s.h },
        serverXonly,
        certificate,
      },
    };
  }
}

/**
 * An established session as plain bytes: both keys (nonces start at zero) and the handshake hash,
 * for a handshake computed in one thread and used in another (structured-clonable).
 */
export interface NoiseSessionKeys {
  encryptKey: Uint8Array;
  decryptKey: Uint8Array;
  handshakeHash: Uint8Array;
}

/** The session `keys` stand for, its CipherStates at nonce zero. */
export function noiseSession(keys: NoiseSessionKeys): NoiseSession {
  return {
    encryptor: new CipherState(keys.encryptKey),
    decryptor: new CipherState(keys.decryptKey),
    handshakeHash: keys.handshakeHash,
  };
}

/** The pool's static identity: its key and the authority's certificate for it. */
export interface ResponderIdentity {
  staticKey: EllswiftKeypair;
  certificate: SignatureNoiseMessage;
}

/** The pool's side: one per connection, answering act one with act two. */
export class NoiseResponder {
  private readonly state = new SymmetricState();
  private readonly e: EllswiftKeypair;

  constructor(
    private readonly identity: ResponderIdentity,
    opts: { ephemeral?: EllswiftKeypair } = {},
  ) {
    this.e = opts.ephemeral ?? ellswiftKeypair();
  }

  actOne(
    msg: Uint8Array,
  ): { ok: true; reply: Uint8Array; session: NoiseSession } | { ok: false; error: HandshakeError } {
    const answered = this.actOneKeys(msg);
    if (!answered.ok) return answered;
    return { ok: true, reply: answered.reply, session: noiseSession(answered.keys) };
  }

  /** actOne with the session as bytes (NoiseSessionKeys), to hand to another thread. */
  actOneKeys(
    msg: Uint8Array,
  ): { ok: true; reply: Uint8Array; keys: NoiseSessionKeys } | { ok: false; error: HandshakeError } {
    if (msg.length !== ACT_ONE_BYTES) {
      return { ok: false, error: { code: 'bad-length', got: msg.length, want: ACT_ONE_BYTES } };
    }
    const s = this.state;
    const re = msg.slice();
    s.mixHash(re);
    s.decryptAndHash(EMPTY);
    const out = new Uint8Array(ACT_TWO_BYTES);
    out.set(this.e.ellswift, 0);
    s.mixHash(this.e.ellswift);
    const reX = ellswiftDecode(re); // decoded once for both ECDHs with the miner's key
    s.mixKey(v2Ecdh(this.e.secretKey, this.e.ellswift, re, false, reX));
    const st = this.identity.staticKey;
    out.set(s.encryptAndHash(st.ellswift), ELLSWIFT_BYTES);
    s.mixKey(v2Ecdh(st.secretKey, st.ellswift, re, false, reX));
    const sig = s.encryptAndHash(encodeSignatureNoiseMessage(this.identity.certificate));
    out.set(sig, 2 * ELLSWIFT_BYTES + MAC_BYTES);
    const [k1, k2] = s.splitKeys();
    return { ok: true, reply: out, keys: { encryptKey: k2, decryptKey: k1, handshakeHash: s.h } };
  }
}
