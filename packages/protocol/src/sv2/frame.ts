// SV2 frame header (spec §3.2): extension_type U16 (bit 15 = channel_msg), msg_type U8,
// msg_length U24, all little-endian, then msg_length bytes of payload.
export const FRAME_HEADER_BYTES = 6;
export const CHANNEL_MSG_BIT = 0x8000;
/** The largest payload a U24 length can state. */
export const MAX_FRAME_PAYLOAD = 0xffffff;

export interface FrameHeader {
  extensionType: number;
  msgType: number;
  msgLength: number;
}

export interface Frame {
  extensionType: number;
  msgType: number;
  payload: Uint8Array;
}

export function encodeFrameHeader(h: FrameHeader, out = new Uint8Array(FRAME_HEADER_BYTES)): Uint8Array {
  if (h.msgLength < 0 || h.msgLength > MAX_FRAME_PAYLOAD) throw new RangeError('msg_length is a U24');
  out[0] = h.extensionType & 0xff;
  out[1] = (h.extensionType >>> 8) & 0xff;
  out[2] = h.msgType & 0xff;
  out[3] = h.msgLength & 0xff;
  out[4] = (h.msgLength >>> 8) & 0xff;
  out[5] = (h.msgLength >>> 16) & 0xff;
  return out;
}

export function decodeFrameHeader(b: Uint8Array): FrameHeader | undefined {
  if (b.length < FRAME_HEADER_BYTES) return undefined;
  return {
    extensionType: (b[0] as number) | ((b[1] as number) << 8),
    msgType: b[2] as number,
    msgLength: (b[3] as number) | ((b[4] as number) << 8) | ((b[5] as number) << 16),
  };
}

export const isChannelMessage = (extensionType: number): boolean => (extensionType & CHANNEL_MSG_BIT) !== 0;

/** A plaintext frame as bytes (header then payload), for unencrypted local links and tests. */
export function encodeFrame(f: Frame): Uint8Array {
  const out = new Uint8Array(FRAME_HEADER_BYTES + f.payload.length);
  encodeFrameHeader({ extensionType: f.extensionType, msgType: f.msgType, msgLength: f.payload.length }, out);
  out.set(f.payload, FRAME_HEADER_BYTES);
  return out;
}
