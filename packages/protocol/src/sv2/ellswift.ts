// ElligatorSwift encoding of secp256k1 x coordinates and the x-only ECDH built on it, as BIP324
// defines them ("ElligatorSwift encoding of curve X coordinates", "Shared secret computation").
// @noble/curves 2.4 has no ElligatorSwift, so the map is written here on top of its modular
// arithmetic. The scalar multiplications (public key, ECDH) go to OpenSSL through node:crypto:
// @noble/curves' variable-base multiply measured 9 ms a call here, OpenSSL's about 3x less.
// Stratum V2 sends every handshake key in this 64-byte form.
import { createECDH } from 'node:crypto';
import { invert, mod, pow } from '@noble/curves/abstract/modular.js';
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import { randomBytes } from '@noble/curves/utils.js';
import { sha256 } from '@noble/hashes/sha256';

const P = secp256k1.Point.Fp.ORDER;
const N = secp256k1.Point.Fn.ORDER;
const B = 7n;
const SQRT_EXP = (P + 1n) / 4n;
const LEGENDRE_EXP = (P - 1n) / 2n;

export const ELLSWIFT_BYTES = 64;

const add = (a: bigint, b: bigint): bigint => mod(a + b, P);
const sub = (a: bigint, b: bigint): bigint => mod(a - b, P);
const mul = (a: bigint, b: bigint): bigint => mod(a * b, P);
const div = (a: bigint, b: bigint): bigint => mul(a, invert(b, P));

/** The square root of `a` mod p when one exists (p = 3 mod 4), else undefined. */
function sqrt(a: bigint): bigint | undefined {
  const r = pow(a, SQRT_EXP, P);
  return mul(r, r) === mod(a, P) ? r : undefined;
}

function isSquare(a: bigint): boolean {
  const v = mod(a, P);
  return v === 0n || pow(v, LEGENDRE_EXP, P) === 1n;
}

const isValidX = (x: bigint): boolean => isSquare(add(mul(mul(x, x), x), B));

const MINUS_3_SQRT = sqrt(P - 3n) as bigint;

export function bytesToNumber(b: Uint8Array): bigint {
  let v = 0n;
  for (const byte of b) v = (v << 8n) | BigInt(byte);
  return v;
}

export function numberTo32Bytes(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let x = v;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

/** XSwiftEC(u, t): the x coordinate on the curve that the field pair (u, t) stands for. */
export function xswiftec(uIn: bigint, tIn: bigint): bigint {
  const u = mod(uIn, P) === 0n ? 1n : mod(uIn, P);
  let t = mod(tIn, P) === 0n ? 1n : mod(tIn, P);
  const u3b = add(mul(mul(u, u), u), B);
  if (add(u3b, mul(t, t)) === 0n) t = mul(2n, t);
  const X = div(sub(u3b, mul(t, t)), mul(2n, t));
  const Y = div(add(X, t), mul(MINUS_3_SQRT, u));
  const x1 = add(u, mul(4n, mul(Y, Y)));
  if (isValidX(x1)) return x1;
  const x2 = div(sub(div(P - X, Y), u), 2n);
  if (isValidX(x2)) return x2;
  const x3 = div(sub(div(X, Y), u), 2n);
  return x3; // BIP324 proves one of the three candidates lies on the curve
}

/** XSwiftECInv(x, u, c): a t with XSwiftEC(u, t) = x for case c (0..7), or undefined. */
export function xswiftecInv(x: bigint, u: bigint, c: number): bigint | undefined {
  let v: bigint;
  let s: bigint;
  const u3b = add(mul(mul(u, u), u), B);
  if ((c & 2) === 0) {
    if (isValidX(sub(P - x, u))) return undefined;
    v = x;
    s = div(mod(-u3b, P), add(add(mul(u, u), mul(u, v)), mul(v, v)));
  } else {
    s = sub(x, u);
    if (s === 0n) return undefined;
    const r = sqrt(mul(P - s, add(mul(4n, u3b), mul(mul(3n, s), mul(u, u)))));
    if (r === undefined) return undefined;
    if ((c & 1) === 1 && r === 0n) return undefined;
    v = div(add(P - u, div(r, s)), 2n);
  }
  const w = sqrt(s);
  if (w === undefined) return undefined;
  const half = (k: bigint): bigint => div(mul(u, k), 2n);
  switch (c & 5) {
    case 0:
      return mod(-mul(w, add(half(sub(1n, MINUS_3_SQRT)), v)), P);
    case 1:
      return mul(w, add(half(add(1n, MINUS_3_SQRT)), v));
    case 4:
      return mul(w, add(half(sub(1n, MINUS_3_SQRT)), v));
    default:
      return mod(-mul(w, add(half(add(1n, MINUS_3_SQRT)), v)), P);
  }
}

/** 64-byte encoding (u ‖ t) → the 32-byte big-endian x coordinate it encodes. */
export function ellswiftDecode(enc: Uint8Array): Uint8Array {
  if (enc.length !== ELLSWIFT_BYTES) throw new RangeError('ellswift encoding is 64 bytes');
  return numberTo32Bytes(xswiftec(bytesToNumber(enc.subarray(0, 32)), bytesToNumber(enc.subarray(32))));
}

/**
 * Encode an x coordinate uniformly: draw u and a case from `random` until the inverse exists
 * (about 1 in 4 tries fail). `random(n)` must return n fresh random bytes.
 */
export function ellswiftEncodeX(x: Uint8Array, random: (n: number) => Uint8Array = randomBytes): Uint8Array {
  const xv = bytesToNumber(x);
  for (;;) {
    const r = random(33);
    const u = mod(bytesToNumber(r.subarray(0, 32)), P);
    if (u === 0n) continue;
    const t = xswiftecInv(xv, u, (r[32] ?? 0) & 7);
    if (t === undefined) continue;
    const out = new Uint8Array(ELLSWIFT_BYTES);
    out.set(numberTo32Bytes(u), 0);
    out.set(numberTo32Bytes(t), 32);
    return out;
  }
}

export interface EllswiftKeypair {
  secretKey: Uint8Array;
  /** x-only (BIP340) public key, 32 bytes */
  xonly: Uint8Array;
  /** ElligatorSwift encoding of the public key's x, 64 bytes */
  ellswift: Uint8Array;
}

/** A keypair from `secretKey` (or a fresh one), its public x encoded with `random`. */
export function ellswiftKeypair(
  secretKey: Uint8Array = schnorr.utils.randomSecretKey(),
  random: (n: number) => Uint8Array = randomBytes,
): EllswiftKeypair {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(secretKey);
  const xonly = new Uint8Array(ecdh.getPublicKey(null, 'compressed').subarray(1));
  return { secretKey, xonly, ellswift: ellswiftEncodeX(xonly, random) };
}

/**
 * ellswift_ecdh_xonly: x(d · lift_x(decode(theirs))), 32 bytes. Throws on a zero/oversized d.
 * OpenSSL's ECDH output is exactly that x; the point is handed over compressed with an even y,
 * which does not change x(d · P).
 */
export function ellswiftEcdhXonly(
  theirs: Uint8Array,
  secretKey: Uint8Array,
  /** ellswiftDecode(theirs), when the caller has it already */
  theirsX: Uint8Array = ellswiftDecode(theirs),
): Uint8Array {
  const d = bytesToNumber(secretKey);
  if (d === 0n || d >= N) throw new RangeError('secret key out of range');
  const point = new Uint8Array(33);
  point[0] = 2;
  point.set(theirsX, 1);
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(secretKey);
  return new Uint8Array(ecdh.computeSecret(point));
}

const ECDH_TAG = sha256(new TextEncoder().encode('bip324_ellswift_xonly_ecdh'));

/**
 * BIP324's v2_ecdh: tagged hash of (initiator's encoding ‖ responder's encoding ‖ shared x).
 * Not symmetric in the roles, so each side says whether it initiated.
 */
export function v2Ecdh(
  secretKey: Uint8Array,
  ours: Uint8Array,
  theirs: Uint8Array,
  initiator: boolean,
  theirsX?: Uint8Array,
): Uint8Array {
  const x = ellswiftEcdhXonly(theirs, secretKey, theirsX);
  const msg = new Uint8Array(64 + 128 + 32);
  msg.set(ECDH_TAG, 0);
  msg.set(ECDH_TAG, 32);
  msg.set(initiator ? ours : theirs, 64);
  msg.set(initiator ? theirs : ours, 128);
  msg.set(x, 192);
  return sha256(msg);
}
