// Common and Mining protocol messages (SV2 spec §3.5, §5.3, message types from §8). Each message is
// one row of SCHEMA: its msg_type, whether the channel_msg bit is set, and its fields in wire order;
// the TypeScript types are derived from the same rows, so the field order is written once.
import { Reader, Sv2DecodeError, Writer } from './binary.js';
import { CHANNEL_MSG_BIT, type Frame } from './frame.js';

type Kind =
  | 'u8'
  | 'u16'
  | 'u32'
  | 'u64'
  | 'f32'
  | 'bool'
  | 'u256'
  | 'str0_255'
  | 'b0_32'
  | 'b0_64k'
  | 'seq0_255_u256'
  | 'seq0_64k_u32'
  | 'option_u32';

interface KindValue {
  u8: number;
  u16: number;
  u32: number;
  u64: bigint;
  f32: number;
  bool: boolean;
  u256: Uint8Array;
  str0_255: string;
  b0_32: Uint8Array;
  b0_64k: Uint8Array;
  seq0_255_u256: Uint8Array[];
  seq0_64k_u32: number[];
  option_u32: number | null;
}

type Field = readonly [string, Kind];
interface Row {
  msgType: number;
  channel: boolean;
  fields: readonly Field[];
}

const OPEN_STANDARD = [
  ['requestId', 'u32'],
  ['userIdentity', 'str0_255'],
  ['nominalHashRate', 'f32'],
  ['maxTarget', 'u256'],
] as const;
const SUBMIT_STANDARD = [
  ['channelId', 'u32'],
  ['sequenceNumber', 'u32'],
  ['jobId', 'u32'],
  ['nonce', 'u32'],
  ['ntime', 'u32'],
  ['version', 'u32'],
] as const;

export const SV2_MESSAGES = {
  SetupConnection: {
    msgType: 0x00,
    channel: false,
    fields: [
      ['protocol', 'u8'],
      ['minVersion', 'u16'],
      ['maxVersion', 'u16'],
      ['flags', 'u32'],
      ['endpointHost', 'str0_255'],
      ['endpointPort', 'u16'],
      ['vendor', 'str0_255'],
      ['hardwareVersion', 'str0_255'],
      ['firmware', 'str0_255'],
      ['deviceId', 'str0_255'],
    ],
  },
  SetupConnectionSuccess: {
    msgType: 0x01,
    channel: false,
    fields: [
      ['usedVersion', 'u16'],
      ['flags', 'u32'],
    ],
  },
  SetupConnectionError: {
    msgType: 0x02,
    channel: false,
    fields: [
      ['flags', 'u32'],
      ['errorCode', 'str0_255'],
    ],
  },
  ChannelEndpointChanged: { msgType: 0x03, channel: true, fields: [['channelId', 'u32']] },
  Reconnect: {
    msgType: 0x04,
    channel: false,
    fields: [
      ['newHost', 'str0_255'],
      ['newPort', 'u16'],
    ],
  },
  OpenStandardMiningChannel: { msgType: 0x10, channel: false, fields: OPEN_STANDARD },
  OpenStandardMiningChannelSuccess: {
    msgType: 0x11,
    channel: false,
    fields: [
      ['requestId', 'u32'],
      ['channelId', 'u32'],
      ['target', 'u256'],
      ['extranoncePrefix', 'b0_32'],
      ['groupChannelId', 'u32'],
    ],
  },
  OpenMiningChannelError: {
    msgType: 0x12,
    channel: false,
    fields: [
      ['requestId', 'u32'],
      ['errorCode', 'str0_255'],
    ],
  },
  OpenExtendedMiningChannel: {
    msgType: 0x13,
    channel: false,
    fields: [...OPEN_STANDARD, ['minExtranonceSize', 'u16']],
  },
  OpenExtendedMiningChannelSuccess: {
    msgType: 0x14,
    channel: false,
    fields: [
      ['requestId', 'u32'],
      ['channelId', 'u32'],
      ['target', 'u256'],
      ['extranonceSize', 'u16'],
      ['extranoncePrefix', 'b0_32'],
      ['groupChannelId', 'u32'],
    ],
  },
  NewMiningJob: {
    msgType: 0x15,
    channel: true,
    fields: [
      ['channelId', 'u32'],
      ['jobId', 'u32'],
      ['minNtime', 'option_u32'],
      ['version', 'u32'],
      ['merkleRoot', 'u256'],
    ],
  },
  UpdateChannel: {
    msgType: 0x16,
    channel: true,
    fields: [
      ['channelId', 'u32'],
      ['nominalHashRate', 'f32'],
      ['maximumTarget', 'u256'],
    ],
  },
  UpdateChannelError: {
    msgType: 0x17,
    channel: true,
    fields: [
      ['channelId', 'u32'],
      ['errorCode', 'str0_255'],
    ],
  },
  CloseChannel: {
    msgType: 0x18,
    channel: true,
    fields: [
      ['channelId', 'u32'],
      ['reasonCode', 'str0_255'],
    ],
  },
  SetExtranoncePrefix: {
    msgType: 0x19,
    channel: true,
    fields: [
      ['channelId', 'u32'],
      ['extranoncePrefix', 'b0_32'],
    ],
  },
  SubmitSharesStandard: { msgType: 0x1a, channel: true, fields: SUBMIT_STANDARD },
  SubmitSharesExtended: {
    msgType: 0x1b,
    channel: true,
    fields: [...SUBMIT_STANDARD, ['extranonce', 'b0_32']],
  },
  SubmitSharesSuccess: {
    msgType: 0x1c,
    channel: true,
    fields: [
      ['channelId', 'u32'],
      ['lastSequenceNumber', 'u32'],
      ['newSubmitsAcceptedCount', 'u32'],
      ['newSharesSum', 'u64'],
    ],
  },
  SubmitSharesError: {
    msgType: 0x1d,
    channel: true,
    fields: [
      ['channelId', 'u32'],
      ['sequenceNumber', 'u32'],
      ['errorCode', 'str0_255'],
    ],
  },
  NewExtendedMiningJob: {
    msgType: 0x1f,
    channel: true,
    fields: [
      ['channelId', 'u32'],
      ['jobId', 'u32'],
      ['minNtime', 'option_u32'],
      ['version', 'u32'],
      ['versionRollingAllowed', 'bool'],
      ['merklePath', 'seq0_255_u256'],
      ['coinbaseTxPrefix', 'b0_64k'],
      ['coinbaseTxSuffix', 'b0_64k'],
    ],
  },
  SetNewPrevHash: {
    msgType: 0x20,
    channel: true,
    fields: [
      ['channelId', 'u32'],
      ['jobId', 'u32'],
      ['prevHash', 'u256'],
      ['minNtime', 'u32'],
      ['nbits', 'u32'],
    ],
  },
  SetTarget: {
    msgType: 0x21,
    channel: true,
    fields: [
      ['channelId', 'u32'],
      ['maximumTarget', 'u256'],
    ],
  },
  SetGroupChannel: {
    msgType: 0x25,
    channel: false,
    fields: [
      ['groupChannelId', 'u32'],
      ['channelIds', 'seq0_64k_u32'],
    ],
  },
} as const satisfies Record<string, Row>;

type Schema = typeof SV2_MESSAGES;
export type Sv2MessageName = keyof Schema;
type FieldsOf<F extends readonly Field[]> = { -readonly [E in F[number] as E[0]]: KindValue[E[1]] };
export type Sv2MessageOf<N extends Sv2MessageName> = { type: N } & FieldsOf<Schema[N]['fields']>;
export type Sv2Message = { [N in Sv2MessageName]: Sv2MessageOf<N> }[Sv2MessageName];

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
