// Replays two Noise sessions recorded against SRI's noise_sv2 2.0 (test/sv2/vectors/sri-fixture.ts says how):
// our initiator with SRI's responder, and SRI's initiator with our responder.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeAuthorityPublicKey } from './certificate.js';
import { ellswiftDecode, type EllswiftKeypair } from './ellswift.js';
import { decodeMessage } from './messages.js';
import { NoiseInitiator, NoiseResponder } from './noise.js';
import { EncryptedFrameDecoder, encryptFrame } from './transport.js';
import { SRI_NOW, SRI_TEST_AUTHORITY } from '../../test/sv2/vectors/sri-fixture.js';

interface Key {
  secretKey: string;
  ellswift: string;
}
const fx = JSON.parse(
  readFileSync(new URL('../../test/sv2/vectors/sri-vectors.json', import.meta.url), 'utf8'),
) as {
  sriResponds: { minerEphemeral: Key; transcript: string[] };
  sriInitiates: {
    poolStatic: Key;
    poolEphemeral: Key;
    certificate: { version: number; validFrom: number; notValidAfter: number; signature: string };
    transcript: string[];
  };
};
const unhex = (s: string | undefined): Uint8Array => Uint8Array.from(Buffer.from(s ?? '', 'hex'));
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const keypair = (k: Key): EllswiftKeypair => {
  const ellswift = unhex(k.ellswift);
  return { secretKey: unhex(k.secretKey), ellswift, xonly: ellswiftDecode(ellswift) };
};
const authority = decodeAuthorityPublicKey(SRI_TEST_AUTHORITY.publicKey) as Uint8Array;

describe('Noise interop with SRI noise_sv2', () => {
  it("accepts SRI's responder: its act two, its certificate and its first frame; SRI read ours", () => {
    const [act2, sriFrame, sriSaw] = fx.sriResponds.transcript;
    const miner = new NoiseInitiator(authority, {
      ephemeral: keypair(fx.sriResponds.minerEphemeral),
      now: () => SRI_NOW,
    });
    miner.actOne();
    const done = miner.actTwo(unhex(act2));
    expect(done.ok).toBe(true);
    if (!done.ok) return;
    const events = new EncryptedFrameDecoder(done.value.session.decryptor).feed(unhex(sriFrame));
    expect(events.length).toBe(1);
    const frame = events[0]?.kind === 'frame' ? events[0].frame : undefined;
    expect(frame && decodeMessage(frame)).toEqual({
      ok: true,
      message: { type: 'SetupConnectionSuccess', usedVersion: 2, flags: 4 },
    });
    // SRI printed the header and payload it decrypted from the frame we sent it.
    expect(sriSaw).toBe('00801a180000 07000000050000000b000000efbeadde01f1536504000020');
  });

  it("answers SRI's initiator with an act two SRI accepted, and reads SRI's first frame", () => {
    const [act1, verdict, sriFrame, sriSaw] = fx.sriInitiates.transcript;
    expect(verdict).toBe('accepted');
    const c = fx.sriInitiates.certificate;
    const pool = new NoiseResponder(
      {
        staticKey: keypair(fx.sriInitiates.poolStatic),
        certificate: { ...c, signature: unhex(c.signature) },
      },
      { ephemeral: keypair(fx.sriInitiates.poolEphemeral) },
    );
    const answered = pool.actOne(unhex(act1));
    expect(answered.ok).toBe(true);
    if (!answered.ok) return;
    const events = new EncryptedFrameDecoder(answered.session.decryptor).feed(unhex(sriFrame));
    const frame = events[0]?.kind === 'frame' ? events[0].frame : undefined;
    expect(frame && toHex(frame.payload)).toBe('000200020006000000');
    const reply = encryptFrame(answered.session.encryptor, {
      extensionType: 0,
      msgType: 0x01,
      payload: Uint8Array.of(2, 0, 4, 0, 0, 0),
    });
    expect(reply.length).toBe(22 + 6 + 16);
    expect(sriSaw).toBe('000001060000 020004000000');
  });
});
