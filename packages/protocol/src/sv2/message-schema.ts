// The Common and Mining protocol messages as data (SV2 spec §3.5, §5.3; message types from §8):
// each row gives the msg_type, whether the channel_msg bit is set, and the fields in wire order.
// The TypeScript message types are derived from these rows, so the field order is written once.
export type Kind =
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

export interface KindValue {
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

export type Field = readonly [string, Kind];
export interface Row {
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
