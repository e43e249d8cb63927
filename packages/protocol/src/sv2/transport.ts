// Encrypted stream framing (SV2 §4.6): the 6-byte header is one AEAD message (22 bytes), then the
// payload goes in blocks of at most 65519 plaintext bytes, each its own AEAD message with a MAC.
// msg_length in the header is the plaintext length; the reader derives the ciphertext length.
import { CipherState, MAC_BYTES, MAX_CIPHERTEXT_BYTES, MAX_PLAINTEXT_BYTES } from './cipher-state.js';
import {
  decodeFrameHeader,
  encodeFrameHeader,
  FRAME_HEADER_BYTES,
  MAX_FRAME_PAYLOAD,
  type Frame,
} from './frame.js';

export const ENCRYPTED_HEADER_BYTES = FRAME_HEADER_BYTES + MAC_BYTES;
const EMPTY = new Uint8Array(0);

/** Ciphertext bytes that carry `ptLen` payload bytes (the spec's pt_len_to_ct_len). */
export function payloadCiphertextLength(ptLen: number): number {
  const full = Math.floor(ptLen / MAX_PLAINTEXT_BYTES);
  const rest = ptLen % MAX_PLAINTEXT_BYTES;
  return full * MAX_CIPHERTEXT_BYTES + (rest > 0 ? rest + MAC_BYTES : 0);
}

/** One frame, encrypted for the wire with the session's sending CipherState. */
export function encryptFrame(enc: CipherState, f: Frame): Uint8Array {
  const n = f.payload.length;
  const header = encodeFrameHeader({ extensionType: f.extensionType, msgType: f.msgType, msgLength: n });
  const out = new Uint8Array(ENCRYPTED_HEADER_BYTES + payloadCiphertextLength(n));
  out.set(enc.encryptWithAd(EMPTY, header), 0);
  let at = ENCRYPTED_HEADER_BYTES;
  for (let i = 0; i < n; i += MAX_PLAINTEXT_BYTES) {
    const block = enc.encryptWithAd(EMPTY, f.payload.subarray(i, Math.min(n, i + MAX_PLAINTEXT_BYTES)));
    out.set(block, at);
    at += block.length;
  }
  return out;
}

export type TransportError =
  | { code: 'bad-mac' }
  | { code: 'too-long'; msgLength: number; max: number }
  | { code: 'truncated'; buffered: number };

export type TransportEvent = { kind: 'frame'; frame: Frame } | { kind: 'error'; error: TransportError };

/**
 * Fed socket bytes in any cuts; yields each whole frame once its last MAC checks. The first error
 * ends the stream: the decoder keeps answering with that error and the caller closes the socket.
 * A replayed or reordered block fails its MAC, because the nonce counter has moved on.
 */
export class EncryptedFrameDecoder {
  private buf = new Uint8Array(0);
  private failed: TransportError | undefined;
  private header: { extensionType: number; msgType: number; msgLength: number } | undefined;

  constructor(
    private readonly dec: CipherState,
    /** refuse frames whose stated payload is longer than this */
    private readonly maxPayload = MAX_FRAME_PAYLOAD,
  ) {}

  feed(chunk: Uint8Array): TransportEvent[] {
    if (this.failed) return [{ kind: 'error', error: this.failed }];
    this.append(chunk);
    const events: TransportEvent[] = [];
    for (;;) {
      const ev = this.step();
      if (!ev) break;
      events.push(ev);
      if (ev.kind === 'error') break;
    }
    return events;
  }

  /** Call when the peer closes: a partial frame left over is reported as truncated. */
  end(): TransportError | undefined {
    if (this.failed) return this.failed;
    if (this.buf.length > 0 || this.header) {
      this.failed = { code: 'truncated', buffered: this.buf.length };
      return this.failed;
    }
    return undefined;
  }

  private append(chunk: Uint8Array): void {
    if (this.buf.length === 0) {
      this.buf = chunk.slice();
      return;
    }
    const next = new Uint8Array(this.buf.length + chunk.length);
    next.set(this.buf, 0);
    next.set(chunk, this.buf.length);
    this.buf = next;
  }

  private fail(error: TransportError): TransportEvent {
    this.failed = error;
    this.buf = new Uint8Array(0);
    return { kind: 'error', error };
  }

  private step(): TransportEvent | undefined {
    if (!this.header) {
      if (this.buf.length < ENCRYPTED_HEADER_BYTES) return undefined;
      const plain = this.dec.decryptWithAd(EMPTY, this.buf.subarray(0, ENCRYPTED_HEADER_BYTES));
      if (!plain) return this.fail({ code: 'bad-mac' });
      const h = decodeFrameHeader(plain) as NonNullable<ReturnType<typeof decodeFrameHeader>>;
      if (h.msgLength > this.maxPayload) {
        return this.fail({ code: 'too-long', msgLength: h.msgLength, max: this.maxPayload });
      }
      this.header = h;
      this.buf = this.buf.subarray(ENCRYPTED_HEADER_BYTES);
    }
    const h = this.header;
    const ctLen = payloadCiphertextLength(h.msgLength);
    if (this.buf.length < ctLen) return undefined;
    const payload = new Uint8Array(h.msgLength);
    let at = 0;
    for (let i = 0; i < ctLen; i += MAX_CIPHERTEXT_BYTES) {
      const block = this.buf.subarray(i, Math.min(ctLen, i + MAX_CIPHERTEXT_BYTES));
      const plain = this.dec.decryptWithAd(EMPTY, block);
      if (!plain) return this.fail({ code: 'bad-mac' });
      payload.set(plain, at);
      at += plain.length;
    }
    this.buf = this.buf.subarray(ctLen);
    this.header = undefined;
    return { kind: 'frame', frame: { extensionType: h.extensionType, msgType: h.msgType, payload } };
  }
}
