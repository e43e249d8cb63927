// Message bytes are checked against sri-vectors.json, serialized by SRI's own crates
// (binary_sv2 7, mining_sv2 12, common_messages_sv2 9; recorded as test/sv2/vectors/sri-fixture.ts says).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bigIntToU256, u256ToBigInt } from './binary.js';
import { decodeFrameHeader, encodeFrame, encodeFrameHeader } from './frame.js';
import { decodeMessage, encodeMessage, SV2_MESSAGES, type Sv2Message } from './messages.js';

const sri = JSON.parse(
  readFileSync(new URL('../../test/sv2/vectors/sri-vectors.json', import.meta.url), 'utf8'),
) as {
  messages: Record<string, string>;
};
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const u256 = (f: (i: number) => number): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => f(i));
const f32 = (v: number): number => Math.fround(v);

// The same values the recording harness serialized with SRI.
const SAMPLES: Sv2Message[] = [
  {
    type: 'SetupConnection',
    protocol: 0,
    minVersion: 2,
    maxVersion: 2,
    flags: 6,
    endpointHost: 'pool.manjam.test',
    endpointPort: 34254,
    vendor: 'Bitmain',
    hardwareVersion: 'S19j Pro',
    firmware: 'braiins-os-24.03',
    deviceId: 'dev-42',
  },
  { type: 'SetupConnectionSuccess', usedVersion: 2, flags: 4 },
  { type: 'SetupConnectionError', flags: 2, errorCode: 'unsupported-feature-flags' },
  { type: 'ChannelEndpointChanged', channelId: 7 },
  { type: 'Reconnect', newHost: 'backup.manjam.test', newPort: 3334 },
  {
    type: 'OpenStandardMiningChannel',
    requestId: 1,
    userIdentity: 'bc1qexample.rig1',
    nominalHashRate: f32(1.5e12),
    maxTarget: u256(() => 0xff),
  },
  {
    type: 'OpenStandardMiningChannelSuccess',
    requestId: 1,
    channelId: 7,
    target: u256((i) => i),
    extranoncePrefix: Uint8Array.of(1, 2, 3, 4),
    groupChannelId: 9,
  },
  { type: 'OpenMiningChannelError', requestId: 2, errorCode: 'unknown-user' },
  {
    type: 'OpenExtendedMiningChannel',
    requestId: 3,
    userIdentity: 'acct.worker',
    nominalHashRate: f32(1e14),
    maxTarget: u256(() => 0xff),
    minExtranonceSize: 8,
  },
  {
    type: 'OpenExtendedMiningChannelSuccess',
    requestId: 3,
    channelId: 8,
    target: u256((i) => i),
    extranonceSize: 8,
    extranoncePrefix: Uint8Array.of(0xaa, 0xbb, 0xcc, 0xdd),
    groupChannelId: 9,
  },
  {
    type: 'NewMiningJob',
    channelId: 7,
    jobId: 11,
    minNtime: 1_700_000_000,
    version: 0x20000000,
    merkleRoot: u256((i) => 31 - i),
  },
  { type: 'UpdateChannel', channelId: 7, nominalHashRate: f32(2.5e12), maximumTarget: u256(() => 0x7f) },
  { type: 'UpdateChannelError', channelId: 7, errorCode: 'max-target-out-of-range' },
  { type: 'CloseChannel', channelId: 7, reasonCode: 'shutdown' },
  { type: 'SetExtranoncePrefix', channelId: 8, extranoncePrefix: Uint8Array.of(9, 8, 7) },
  {
    type: 'SubmitSharesStandard',
    channelId: 7,
    sequenceNumber: 5,
    jobId: 11,
    nonce: 0xdeadbeef,
    ntime: 1_700_000_001,
    version: 0x20000004,
  },
  {
    type: 'SubmitSharesExtended',
    channelId: 8,
    sequenceNumber: 6,
    jobId: 12,
    nonce: 0x01020304,
    ntime: 1_700_000_002,
    version: 0x20000000,
    extranonce: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8),
  },
  {
    type: 'SubmitSharesSuccess',
    channelId: 8,
    lastSequenceNumber: 6,
    newSubmitsAcceptedCount: 3,
    newSharesSum: 12_345_678_901n,
  },
  { type: 'SubmitSharesError', channelId: 8, sequenceNumber: 7, errorCode: 'invalid-job-id' },
  {
    type: 'NewExtendedMiningJob',
    channelId: 8,
    jobId: 12,
    minNtime: null,
    version: 0x20000000,
    versionRollingAllowed: true,
    merklePath: [u256(() => 0x11), u256(() => 0x22)],
    coinbaseTxPrefix: Uint8Array.of(1, 0, 0, 0, 1),
    coinbaseTxSuffix: Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0),
  },
  {
    type: 'SetNewPrevHash',
    channelId: 8,
    jobId: 12,
    prevHash: u256((i) => i * 3),
    minNtime: 1_700_000_000,
    nbits: 0x1d00ffff,
  },
  { type: 'SetTarget', channelId: 8, maximumTarget: u256((i) => (i < 28 ? 0xff : 0)) },
  { type: 'SetGroupChannel', groupChannelId: 9, channelIds: [7, 8] },
];

describe('SV2 frames', () => {
  it('reads the header bytes of SRI framing-sv2 header.rs test_header_from_bytes', () => {
    const h = decodeFrameHeader(Uint8Array.of(1, 2, 3, 4, 5, 6));
    expect(h).toEqual({ extensionType: 0x0201, msgType: 3, msgLength: 0x060504 });
    expect(toHex(encodeFrameHeader(h as NonNullable<typeof h>))).toBe('010203040506');
  });

  it('reads a channel-message header as SRI framing.rs test_size_hint does (length 46)', () => {
    expect(decodeFrameHeader(Uint8Array.of(0, 128, 30, 46, 0, 0))).toEqual({
      extensionType: 0x8000,
      msgType: 0x1e,
      msgLength: 46,
    });
  });
});

describe('SV2 messages', () => {
  it('covers every message SRI serialized', () => {
    expect(SAMPLES.map((m) => m.type).sort()).toEqual(Object.keys(sri.messages).sort());
    expect(Object.keys(SV2_MESSAGES).sort()).toEqual(Object.keys(sri.messages).sort());
  });

  for (const sample of SAMPLES) {
    it(`${sample.type} serializes to SRI's bytes and reads back the same`, () => {
      const frame = encodeMessage(sample);
      expect(toHex(frame.payload)).toBe(sri.messages[sample.type]);
      expect(frame.msgType).toBe(SV2_MESSAGES[sample.type].msgType);
      expect(frame.extensionType).toBe(SV2_MESSAGES[sample.type].channel ? 0x8000 : 0);
      const fromSri = {
        ...frame,
        payload: Uint8Array.from(Buffer.from(sri.messages[sample.type] ?? '', 'hex')),
      };
      expect(decodeMessage(fromSri)).toEqual({ ok: true, message: sample });
    });
  }

  it('puts a SubmitSharesStandard on the wire as header then payload', () => {
    const frame = encodeMessage(SAMPLES[15] as Sv2Message);
    expect(toHex(encodeFrame(frame))).toBe('00801a180000' + sri.messages.SubmitSharesStandard);
  });

  it('refuses every cut of every sample, trailing bytes, unknown types and bad BOOL/OPTION bytes', () => {
    for (const sample of SAMPLES) {
      const frame = encodeMessage(sample);
      for (let n = 0; n < frame.payload.length; n++) {
        const cut = decodeMessage({ ...frame, payload: frame.payload.subarray(0, n) });
        expect(cut.ok, `${sample.type} cut at ${n}`).toBe(false);
      }
      const long = decodeMessage({ ...frame, payload: Uint8Array.of(...frame.payload, 0) });
      expect(long).toEqual({ ok: false, error: { code: 'trailing-bytes', message: sample.type, extra: 1 } });
    }
    expect(decodeMessage({ extensionType: 0, msgType: 0x99, payload: new Uint8Array(0) })).toEqual({
      ok: false,
      error: { code: 'unknown-message', msgType: 0x99 },
    });
    expect(decodeMessage({ extensionType: 0x0001, msgType: 0x00, payload: new Uint8Array(0) })).toEqual({
      ok: false,
      error: { code: 'unknown-extension', extensionType: 1 },
    });
    const job = encodeMessage(SAMPLES[19] as Sv2Message);
    const badBool = job.payload.slice();
    badBool[13] = 2; // version_rolling_allowed after channel_id, job_id, min_ntime (None), version
    expect(decodeMessage({ ...job, payload: badBool })).toMatchObject({
      ok: false,
      error: { reason: 'bad-bool' },
    });
    const badOption = job.payload.slice();
    badOption[8] = 2;
    expect(decodeMessage({ ...job, payload: badOption })).toMatchObject({
      ok: false,
      error: { reason: 'bad-option' },
    });
    const longPrefix = Uint8Array.of(8, 0, 0, 0, 33, ...new Uint8Array(33));
    expect(decodeMessage({ extensionType: 0x8000, msgType: 0x19, payload: longPrefix })).toMatchObject({
      ok: false,
      error: { code: 'malformed', field: 'extranoncePrefix', reason: 'too-long' },
    });
  });

  it('answers random payloads for every message type with a result, never an exception', () => {
    let seed = 29;
    const byte = (): number => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) >>> 24;
    let refused = 0;
    for (const name of Object.keys(SV2_MESSAGES) as (keyof typeof SV2_MESSAGES)[]) {
      for (let i = 0; i < 200; i++) {
        const payload = Uint8Array.from({ length: byte() % 120 }, byte);
        const r = decodeMessage({ extensionType: 0, msgType: SV2_MESSAGES[name].msgType, payload });
        if (!r.ok) refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
  });

  it('reads a U256 target little-endian', () => {
    const t = (1n << 224n) - 1n;
    expect(u256ToBigInt(bigIntToU256(t))).toBe(t);
    expect(toHex(bigIntToU256(t)).slice(-8)).toBe('00000000');
  });
});
