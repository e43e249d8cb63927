// Encode and decode the messages of message-schema.ts to and from frame payloads.
import { Reader, Sv2DecodeError, Writer } from './binary.js';
import { CHANNEL_MSG_BIT, type Frame } from './frame.js';
import { SV2_MESSAGES, type Kind, type Row, type Sv2Message, type Sv2MessageName } from './message-schema.js';

export { SV2_MESSAGES, type Sv2Message, type Sv2MessageName, type Sv2MessageOf } from './message-schema.js';

const BY_TYPE = new Map<number, Sv2MessageName>(
  (Object.keys(SV2_MESSAGES) as Sv2MessageName[]).map((n) => [SV2_MESSAGES[n].msgType, n]),
);

export type Sv2MessageError =
  | { code: 'unknown-extension'; extensionType: number }
  | { code: 'unknown-message'; msgType: number }
  | { code: 'malformed'; message: Sv2MessageName; field: string; reason: Sv2DecodeError['reason'] }
  | { code: 'trailing-bytes'; message: Sv2MessageName; extra: number };

function writeField(w: Writer, kind: Kind, v: unknown): void {
  switch (kind) {
    case 'u8':
      return void w.u8(v as number);
    case 'u16':
      return void w.u16(v as number);
    case 'u32':
      return void w.u32(v as number);
    case 'u64':
      return void w.u64(v as bigint);
    case 'f32':
      return void w.f32(v as number);
    case 'bool':
      return void w.bool(v as boolean);
    case 'u256':
      return void w.u256(v as Uint8Array);
    case 'str0_255':
      return void w.str0255(v as string);
    case 'b0_32':
      return void w.b0(32, v as Uint8Array);
    case 'b0_64k':
      return void w.b064k(v as Uint8Array);
    case 'seq0_255_u256': {
      const items = v as Uint8Array[];
      if (items.length > 255) throw new RangeError('SEQ0_255 longer than 255');
      w.u8(items.length);
      for (const item of items) w.u256(item);
      return;
    }
    case 'seq0_64k_u32': {
      const items = v as number[];
      if (items.length > 0xffff) throw new RangeError('SEQ0_64K longer than 65535');
      w.u16(items.length);
      for (const item of items) w.u32(item);
      return;
    }
    case 'option_u32': {
      if (v === null) return void w.u8(0);
      return void w.u8(1).u32(v as number);
    }
  }
}

function readField(r: Reader, kind: Kind, f: string): unknown {
  switch (kind) {
    case 'u8':
      return r.u8(f);
    case 'u16':
      return r.u16(f);
    case 'u32':
      return r.u32(f);
    case 'u64':
      return r.u64(f);
    case 'f32':
      return r.f32(f);
    case 'bool':
      return r.bool(f);
    case 'u256':
      return r.u256(f);
    case 'str0_255':
      return r.str0255(f);
    case 'b0_32':
      return r.b0(32, f);
    case 'b0_64k':
      return r.b064k(f);
    case 'seq0_255_u256':
      return Array.from({ length: r.u8(f) }, () => r.u256(f));
    case 'seq0_64k_u32':
      return Array.from({ length: r.u16(f) }, () => r.u32(f));
    case 'option_u32': {
      const n = r.u8(f);
      if (n > 1) throw new Sv2DecodeError(f, 'bad-option');
      return n === 1 ? r.u32(f) : null;
    }
  }
}

/** The frame for a message (payload serialized, channel_msg bit set as §8 says). */
export function encodeMessage(msg: Sv2Message): Frame {
  const row: Row = SV2_MESSAGES[msg.type];
  const w = new Writer();
  const values = msg as unknown as Record<string, unknown>;
  for (const [name, kind] of row.fields) writeField(w, kind, values[name]);
  return { extensionType: row.channel ? CHANNEL_MSG_BIT : 0, msgType: row.msgType, payload: w.finish() };
}

/**
 * The message a frame carries, or why not. Never throws: payloads come from miners. The
 * channel_msg bit is not checked against §8 (it carries no information the msg_type lacks).
 */
export function decodeMessage(
  frame: Frame,
): { ok: true; message: Sv2Message } | { ok: false; error: Sv2MessageError } {
  const extension = frame.extensionType & ~CHANNEL_MSG_BIT;
  if (extension !== 0) return { ok: false, error: { code: 'unknown-extension', extensionType: extension } };
  const name = BY_TYPE.get(frame.msgType);
  if (!name) return { ok: false, error: { code: 'unknown-message', msgType: frame.msgType } };
  const r = new Reader(frame.payload);
  const out: Record<string, unknown> = { type: name };
  try {
    for (const [field, kind] of (SV2_MESSAGES[name] as Row).fields) out[field] = readField(r, kind, field);
  } catch (e) {
    if (!(e instanceof Sv2DecodeError)) throw e;
    return { ok: false, error: { code: 'malformed', message: name, field: e.field, reason: e.reason } };
  }
  if (r.remaining > 0)
    return { ok: false, error: { code: 'trailing-bytes', message: name, extra: r.remaining } };
  return { ok: true, message: out as unknown as Sv2Message };
}
