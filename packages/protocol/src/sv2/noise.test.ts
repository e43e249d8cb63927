import { schnorr } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha256';
import { describe, expect, it } from 'vitest';
import {
  decodeAuthorityPublicKey,
  decodeAuthoritySecretKey,
  encodeAuthorityPublicKey,
  signCertificate,
} from './certificate.js';
import { ellswiftKeypair } from './ellswift.js';
import {
  ACT_ONE_BYTES,
  ACT_TWO_BYTES,
  NOISE_PROTOCOL_NAME,
  NoiseInitiator,
  NoiseResponder,
  type NoiseSession,
} from './noise.js';
import { EncryptedFrameDecoder, encryptFrame, payloadCiphertextLength } from './transport.js';

const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const NOW = 1_767_000_000;

// The test authority keypair printed in SRI's noise-sv2/codec-sv2 tests and example configs.
const SRI_AUTHORITY_PUBLIC = '9auqWEzQDVyd2oe1JVGFLMLHZtCo2FFqZwtKA5gd9xbuEu7PH72';
const SRI_AUTHORITY_SECRET = 'mkDLTBBRxdBv998612qipDYoTK3YUrqLe8uWw7gu3iXbSrn2n';

function pool(authoritySecret: Uint8Array, validFrom = NOW - 60, notValidAfter = NOW + 3600) {
  const staticKey = ellswiftKeypair();
  const certificate = signCertificate({ validFrom, notValidAfter }, staticKey.xonly, authoritySecret);
  return { staticKey, certificate };
}

function handshake(opts: { authorityForMiner?: Uint8Array; identity?: ReturnType<typeof pool> } = {}) {
  const authority = schnorr.utils.randomSecretKey();
  const identity = opts.identity ?? pool(authority);
  const miner = new NoiseInitiator(opts.authorityForMiner ?? schnorr.getPublicKey(authority), {
    now: () => NOW,
  });
  const responder = new NoiseResponder(identity);
  const one = miner.actOne();
  const answered = responder.actOne(one);
  if (!answered.ok) throw new Error(answered.error.code);
  return { one, answered, result: miner.actTwo(answered.reply), identity };
}

function established(): { miner: NoiseSession; pool: NoiseSession } {
  const { answered, result } = handshake();
  if (!result.ok || !answered.ok) throw new Error('handshake failed');
  return { miner: result.value.session, pool: answered.session };
}

describe('Noise NX handshake', () => {
  it('hashes the protocol name to the constant SRI ships (noise-sv2/src/lib.rs NOISE_HASHED_PROTOCOL_NAME_CHACHA)', () => {
    const sri = [
      46, 180, 120, 129, 32, 142, 158, 238, 31, 102, 159, 103, 198, 110, 231, 14, 169, 234, 136, 9, 13, 80,
      63, 232, 48, 220, 75, 200, 62, 41, 191, 16,
    ];
    expect([...sha256(new TextEncoder().encode(NOISE_PROTOCOL_NAME))]).toEqual(sri);
  });

  it('reads the authority keys SRI prints and they form one keypair', () => {
    const pub = decodeAuthorityPublicKey(SRI_AUTHORITY_PUBLIC);
    const secret = decodeAuthoritySecretKey(SRI_AUTHORITY_SECRET);
    expect(pub && toHex(pub)).toBe('24ee3c3804a1aaa4c03b80ea19f7a5863c916e8994b7db94a3bad7ee092b6ce7');
    expect(secret && toHex(schnorr.getPublicKey(secret))).toBe(pub && toHex(pub));
    expect(encodeAuthorityPublicKey(pub as Uint8Array)).toBe(SRI_AUTHORITY_PUBLIC);
    expect(decodeAuthorityPublicKey(SRI_AUTHORITY_PUBLIC.slice(0, -1) + 'x')).toBeUndefined();
  });

  // Act two is 64 + (64 + 16) + (74 + 16) = 234 bytes, SRI's INITIATOR_EXPECTED_HANDSHAKE_MESSAGE_SIZE;
  // the spec's table still says 170, a figure left from 32-byte keys.
  it('completes with a 64 byte act one and a 234 byte act two, both sides holding the same hash and the server key', () => {
    const { one, answered, result, identity } = handshake();
    expect(one.length).toBe(ACT_ONE_BYTES);
    expect(ACT_ONE_BYTES).toBe(64);
    expect(ACT_TWO_BYTES).toBe(234);
    expect(answered.ok && answered.reply.length).toBe(ACT_TWO_BYTES);
    expect(result.ok).toBe(true);
    if (!result.ok || !answered.ok) return;
    expect(toHex(result.value.session.handshakeHash)).toBe(toHex(answered.session.handshakeHash));
    expect(toHex(result.value.serverXonly)).toBe(toHex(identity.staticKey.xonly));
  });

  it('is refused by a miner configured with another authority key', () => {
    const other = schnorr.getPublicKey(schnorr.utils.randomSecretKey());
    const { result } = handshake({ authorityForMiner: other });
    expect(result).toEqual({ ok: false, error: { code: 'bad-certificate', check: 'bad-signature' } });
  });

  it('is refused when the certificate has expired or is not valid yet', () => {
    const authority = schnorr.utils.randomSecretKey();
    const pub = schnorr.getPublicKey(authority);
    const expired = handshake({ authorityForMiner: pub, identity: pool(authority, NOW - 7200, NOW - 3600) });
    expect(!expired.result.ok && expired.result.error).toEqual({ code: 'bad-certificate', check: 'expired' });
    const early = handshake({ authorityForMiner: pub, identity: pool(authority, NOW + 3600, NOW + 7200) });
    expect(!early.result.ok && early.result.error).toEqual({
      code: 'bad-certificate',
      check: 'not-yet-valid',
    });
  });

  it('is refused when one byte of act two is flipped, or act two is short', () => {
    for (const at of [0, 70, 150, 169]) {
      const authority = schnorr.utils.randomSecretKey();
      const miner = new NoiseInitiator(schnorr.getPublicKey(authority), { now: () => NOW });
      const answered = new NoiseResponder(pool(authority)).actOne(miner.actOne());
      if (!answered.ok) throw new Error('responder refused');
      const reply = answered.reply.slice();
      reply[at] = (reply[at] as number) ^ 1;
      const result = miner.actTwo(reply);
      expect(result.ok, `flip at ${at}`).toBe(false);
    }
    const miner = new NoiseInitiator(new Uint8Array(32), { now: () => NOW });
    miner.actOne();
    expect(miner.actTwo(new Uint8Array(100))).toEqual({
      ok: false,
      error: { code: 'bad-length', got: 100, want: 234 },
    });
  });
});

describe('Noise transport', () => {
  it('answers random bytes with an error event, never an exception, and stays closed after it', () => {
    const { pool: server } = established(); // a refused block leaves the nonce counter where it was
    for (let i = 0; i < 50; i++) {
      const dec = new EncryptedFrameDecoder(server.decryptor);
      const noise = Uint8Array.from({ length: 22 + i * 7 }, () => Math.floor(Math.random() * 256));
      expect(dec.feed(noise)).toEqual([{ kind: 'error', error: { code: 'bad-mac' } }]);
      expect(dec.end()).toEqual({ code: 'bad-mac' });
    }
  });

  it('lets the pool answer any 64 bytes as act one without throwing', () => {
    const identity = pool(schnorr.utils.randomSecretKey());
    for (let i = 0; i < 20; i++) {
      const act = Uint8Array.from({ length: 64 }, () => Math.floor(Math.random() * 256));
      if (i === 0) act.fill(0);
      if (i === 1) act.fill(0xff);
      const answered = new NoiseResponder(identity).actOne(act);
      expect(answered.ok && answered.reply.length).toBe(ACT_TWO_BYTES);
    }
  });

  it('carries frames both ways, cut into any pieces, including payloads over one Noise block', () => {
    const { miner, pool: server } = established();
    const big = new Uint8Array(150_000).map((_, i) => i & 0xff);
    const frames = [
      { extensionType: 0, msgType: 0x00, payload: Uint8Array.of(0, 2, 0, 2, 0) },
      { extensionType: 0x8000, msgType: 0x1b, payload: big },
      { extensionType: 0, msgType: 0x04, payload: new Uint8Array(0) },
    ];
    const wire = Buffer.concat(frames.map((f) => encryptFrame(miner.encryptor, f)));
    expect(wire.length).toBe(3 * 22 + 5 + 16 + payloadCiphertextLength(150_000));
    const dec = new EncryptedFrameDecoder(server.decryptor);
    const got = [];
    for (let i = 0; i < wire.length; i += 7777) got.push(...dec.feed(wire.subarray(i, i + 7777)));
    expect(got.map((e) => (e.kind === 'frame' ? toHex(e.frame.payload) : e.error.code))).toEqual(
      frames.map((f) => toHex(f.payload)),
    );
    expect(dec.end()).toBeUndefined();
    const back = new EncryptedFrameDecoder(miner.decryptor);
    const reply = encryptFrame(server.encryptor, {
      extensionType: 0,
      msgType: 0x01,
      payload: Uint8Array.of(2, 0, 0, 0, 0, 0),
    });
    expect(back.feed(reply)).toEqual([
      { kind: 'frame', frame: { extensionType: 0, msgType: 1, payload: Uint8Array.of(2, 0, 0, 0, 0, 0) } },
    ]);
  });

  it('refuses a tampered frame, a replayed frame, an over-long frame and reports a truncated one', () => {
    const { miner, pool: server } = established();
    const frame = { extensionType: 0x8000, msgType: 0x1a, payload: new Uint8Array(24).fill(7) };
    const first = encryptFrame(miner.encryptor, frame);
    const dec = new EncryptedFrameDecoder(server.decryptor, 1000);
    expect(dec.feed(first)[0]?.kind).toBe('frame');
    expect(dec.feed(first)).toEqual([{ kind: 'error', error: { code: 'bad-mac' } }]);
    expect(dec.feed(new Uint8Array(5))).toEqual([{ kind: 'error', error: { code: 'bad-mac' } }]);

    const s2 = established();
    const tampered = encryptFrame(s2.miner.encryptor, frame);
    tampered[30] = (tampered[30] as number) ^ 0x80;
    expect(new EncryptedFrameDecoder(s2.pool.decryptor).feed(tampered)).toEqual([
      { kind: 'error', error: { code: 'bad-mac' } },
    ]);

    const s3 = established();
    const long = encryptFrame(s3.miner.encryptor, { ...frame, payload: new Uint8Array(2000) });
    expect(new EncryptedFrameDecoder(s3.pool.decryptor, 1000).feed(long)).toEqual([
      { kind: 'error', error: { code: 'too-long', msgLength: 2000, max: 1000 } },
    ]);

    const s4 = established();
    const cut = encryptFrame(s4.miner.encryptor, frame).subarray(0, 40);
    const d4 = new EncryptedFrameDecoder(s4.pool.decryptor);
    expect(d4.feed(cut)).toEqual([]);
    expect(d4.end()).toEqual({ code: 'truncated', buffered: 18 });
  });
});
