// Records sri-vectors.json: message bytes serialized by SRI's crates, and two Noise sessions
// between this package and SRI's noise_sv2 (SRI responding to us, then SRI initiating to us).
// Needs cargo; run from the repository root:
//   cargo build --release --manifest-path packages/protocol/src/sv2/vectors/sri-gen/Cargo.toml
//   npx tsx packages/protocol/src/sv2/vectors/record-sri.ts
// The unit tests replay the file without cargo; the crate versions are pinned in sri-gen/Cargo.lock.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { sha256 } from '@noble/hashes/sha256';
import { decodeAuthorityPublicKey, decodeAuthoritySecretKey, signCertificate } from '../certificate.js';
import { ellswiftKeypair } from '../ellswift.js';
import { encodeMessage } from '../messages.js';
import { NoiseInitiator, NoiseResponder } from '../noise.js';
import { EncryptedFrameDecoder, encryptFrame } from '../transport.js';
import { SRI_NOW, SRI_TEST_AUTHORITY } from './sri-fixture.js';

const BIN = new URL('./sri-gen/target/release/sri-vectors', import.meta.url).pathname;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unhex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.trim(), 'hex'));

/** A deterministic byte stream so the recorded keys do not depend on this machine's RNG. */
function seeded(label: string): (n: number) => Uint8Array {
  let counter = 0;
  return (n) => {
    const out = new Uint8Array(n);
    for (let at = 0; at < n; at += 32) {
      const block = sha256(new TextEncoder().encode(`${label}/${counter++}`));
      out.set(block.subarray(0, Math.min(32, n - at)), at);
    }
    return out;
  };
}

const keypair = (label: string) => {
  const rnd = seeded(label);
  return ellswiftKeypair(rnd(32), rnd);
};

/** Runs the generator with one stdin line per step, feeding each answer from the previous output. */
function converse(mode: string, steps: ((out: string[]) => string)[]): string[] {
  let out: string[] = [];
  let input = '';
  for (const step of steps) {
    out = execFileSync(BIN, [mode], { input, encoding: 'utf8' }).trim().split('\n');
    input += step(out) + '\n';
  }
  return execFileSync(BIN, [mode], { input, encoding: 'utf8' }).trim().split('\n');
}

const authorityPub = decodeAuthorityPublicKey(SRI_TEST_AUTHORITY.publicKey) as Uint8Array;
const authoritySecret = decodeAuthoritySecretKey(SRI_TEST_AUTHORITY.secretKey) as Uint8Array;
const messages = Object.fromEntries(
  execFileSync(BIN, ['messages'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.split(' ') as [string, string]),
);

// 1. We initiate, SRI responds. SRI's generator is seeded, so rerunning it repeats its answers.
const minerE = keypair('manjam-initiator-ephemeral');
const ourFrame = encodeMessage({
  type: 'SubmitSharesStandard',
  channelId: 7,
  sequenceNumber: 5,
  jobId: 11,
  nonce: 0xdeadbeef,
  ntime: 1_700_000_001,
  version: 0x20000004,
});
const act1 = new NoiseInitiator(authorityPub, { ephemeral: minerE, now: () => SRI_NOW }).actOne();
const toSri = converse('responder', [
  () => hex(act1),
  (out) => {
    const miner = new NoiseInitiator(authorityPub, { ephemeral: minerE, now: () => SRI_NOW });
    miner.actOne();
    const done = miner.actTwo(unhex(out[0] ?? ''));
    if (!done.ok) throw new Error(`SRI's act two refused: ${JSON.stringify(done.error)}`);
    const events = new EncryptedFrameDecoder(done.value.session.decryptor).feed(unhex(out[1] ?? ''));
    if (events[0]?.kind !== 'frame') throw new Error("SRI's frame refused");
    return hex(encryptFrame(done.value.session.encryptor, ourFrame));
  },
]);

// 2. SRI initiates, we respond with a fixed static key, ephemeral key and certificate.
const staticKey = keypair('manjam-responder-static');
const poolE = keypair('manjam-responder-ephemeral');
const certificate = signCertificate(
  { validFrom: SRI_NOW - 60, notValidAfter: SRI_NOW + 86_400 },
  staticKey.xonly,
  authoritySecret,
);
const fromSri = converse('initiator', [
  (out) => {
    const r = new NoiseResponder({ staticKey, certificate }, { ephemeral: poolE });
    const answered = r.actOne(unhex(out[0] ?? ''));
    if (!answered.ok) throw new Error('SRI act one refused');
    return hex(answered.reply);
  },
  (out) => {
    const r = new NoiseResponder({ staticKey, certificate }, { ephemeral: poolE });
    const answered = r.actOne(unhex(out[0] ?? ''));
    if (!answered.ok || out[1] !== 'accepted') throw new Error(`SRI refused our act two: ${out[1]}`);
    const events = new EncryptedFrameDecoder(answered.session.decryptor).feed(unhex(out[2] ?? ''));
    if (events[0]?.kind !== 'frame') throw new Error("SRI's frame refused");
    const reply = encodeMessage({ type: 'SetupConnectionSuccess', usedVersion: 2, flags: 4 });
    return hex(encryptFrame(answered.session.encryptor, reply));
  },
]);

const key = (k: ReturnType<typeof keypair>) => ({ secretKey: hex(k.secretKey), ellswift: hex(k.ellswift) });
const fixture = {
  note: 'Recorded by record-sri.ts against SRI crates pinned in sri-gen/Cargo.lock; do not edit by hand.',
  messages,
  sriResponds: { minerEphemeral: key(minerE), transcript: toSri },
  sriInitiates: {
    poolStatic: key(staticKey),
    poolEphemeral: key(poolE),
    certificate: { ...certificate, signature: hex(certificate.signature) },
    transcript: fromSri,
  },
};
writeFileSync(new URL('./sri-vectors.json', import.meta.url), JSON.stringify(fixture, null, 2) + '\n');
process.stdout.write(`recorded ${Object.keys(messages).length} messages and 2 sessions\n`);
