// Noise CipherState over ChaCha20-Poly1305 (IETF) as SV2 §4.4.1 fixes it: the 96-bit nonce is 32
// zero bits then the 64-bit counter little-endian; a failed decryption leaves the counter alone.
// The AEAD is OpenSSL's through node:crypto: timed side by side on this machine, @noble/ciphers 2.4
// cost 2.5x (64 B) to 11x (64 KB) as much per message; shares travel in small frames.
import { createCipheriv, createDecipheriv } from 'node:crypto';

export const MAC_BYTES = 16;
/** Noise's own cap on one transport message (ciphertext with its MAC). */
export const MAX_CIPHERTEXT_BYTES = 65535;
export const MAX_PLAINTEXT_BYTES = MAX_CIPHERTEXT_BYTES - MAC_BYTES;
const NONCE_LIMIT = 0xffffffffffffffffn; // Noise reserves 2^64-1

export class CipherState {
  private key: Uint8Array | undefined;
  private n = 0n;
  private readonly nonce = new Uint8Array(12);
  private readonly nonceView = new DataView(this.nonce.buffer);

  constructor(key?: Uint8Array) {
    if (key) this.initializeKey(key);
  }

  initializeKey(key: Uint8Array): void {
    if (key.length !== 32) throw new RangeError('ChaCha20-Poly1305 key is 32 bytes');
    this.key = key.slice();
    this.n = 0n;
  }

  hasKey(): boolean {
    return this.key !== undefined;
  }

  /** The next nonce value (messages sent or accepted so far). */
  get counter(): bigint {
    return this.n;
  }

  private nextNonce(): Uint8Array {
    if (this.n >= NONCE_LIMIT) throw new RangeError('Noise nonce exhausted');
    this.nonceView.setBigUint64(4, this.n, true);
    return this.nonce;
  }

  encryptWithAd(ad: Uint8Array, plaintext: Uint8Array): Uint8Array {
    if (!this.key) return plaintext.slice();
    const c = createCipheriv('chacha20-poly1305', this.key, this.nextNonce(), { authTagLength: MAC_BYTES });
    c.setAAD(ad, { plaintextLength: plaintext.length });
    const body = c.update(plaintext);
    c.final();
    const out = new Uint8Array(body.length + MAC_BYTES);
    out.set(body, 0);
    out.set(c.getAuthTag(), body.length);
    this.n += 1n;
    return out;
  }

  /** The plaintext, or undefined when the MAC does not check (the counter then stays put). */
  decryptWithAd(ad: Uint8Array, ciphertext: Uint8Array): Uint8Array | undefined {
    if (!this.key) return ciphertext.slice();
    if (ciphertext.length < MAC_BYTES) return undefined;
    const bodyLength = ciphertext.length - MAC_BYTES;
    const d = createDecipheriv('chacha20-poly1305', this.key, this.nextNonce(), { authTagLength: MAC_BYTES });
    d.setAAD(ad, { plaintextLength: bodyLength });
    d.setAuthTag(ciphertext.subarray(bodyLength));
    const body = d.update(ciphertext.subarray(0, bodyLength));
    try {
      d.final(); // throws when the tag does not match; the plaintext is then discarded
    } catch {
      return undefined;
    }
    this.n += 1n;
    return new Uint8Array(body.buffer, body.byteOffset, body.length);
  }
}
