// Drill phase `sv2`: the Stratum V2 Noise layer on one core, then its refusals over real loopback
// sockets. A small responder (the pool's side of packages/protocol/src/sv2) listens on 127.0.0.1;
// honest miners handshake and echo frames while other connections send what an attacker on the
// path could: garbage, a truncated frame, a replayed frame, a flipped ciphertext byte, an
// over-long header; a miner holding the wrong authority key must refuse the pool. Figures only.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { schnorr } from '@noble/curves/secp256k1.js';
import {
  ACT_ONE_BYTES,
  ACT_TWO_BYTES,
  EncryptedFrameDecoder,
  ellswiftKeypair,
  encryptFrame,
  NoiseInitiator,
  NoiseResponder,
  signCertificate,
  type NoiseSession,
  type ResponderIdentity,
} from '@manjam/protocol/sv2';
import { Report, fixed, int, load } from './report.js';

const MAX_PAYLOAD = 16_384;

function identity(authoritySecret: Uint8Array): ResponderIdentity {
  const staticKey = ellswiftKeypair();
  const now = Math.floor(Date.now() / 1000);
  const certificate = signCertificate(
    { validFrom: now - 60, notValidAfter: now + 3600 },
    staticKey.xonly,
    authoritySecret,
  );
  return { staticKey, certificate };
}

/**
 * Runs `op` for `seconds` of wall time; returns how many ran, per wall second and per CPU second
 * of this process. On a shared machine the CPU figure is the one-core cost; wall shows contention.
 */
function rate(seconds: number, op: () => void): { n: number; wall: number; cpu: number } {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < seconds * 1000) {
    op();
    n++;
  }
  const wall = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu0);
  return { n, wall: n / wall, cpu: n / ((used.user + used.system) / 1e6) };
}

/** Handshakes per second and transport MB/s, both directions done by this one thread. */
export function measureNoise(report: Report, seconds = 3): void {
  const authority = schnorr.utils.randomSecretKey();
  const pub = schnorr.getPublicKey(authority);
  const id = identity(authority);
  let session: { miner: NoiseSession; pool: NoiseSession } | undefined;
  const both = rate(seconds, () => {
    const miner = new NoiseInitiator(pub);
    const answered = new NoiseResponder(id).actOne(miner.actOne());
    if (!answered.ok) throw new Error('responder refused');
    const done = miner.actTwo(answered.reply);
    if (!done.ok) throw new Error('initiator refused');
    session = { miner: done.value.session, pool: answered.session };
  });
  report.line(
    `  handshakes, both roles: ${int(both.cpu)}/CPU-s (${int(both.wall)}/s wall, ${int(both.n)} done)`,
  );
  // The pool's share alone: answering act one (its ephemeral key, two ECDHs, two AEADs).
  const acts = Array.from({ length: 64 }, () => new NoiseInitiator(pub).actOne());
  let i = 0;
  const pool = rate(seconds, () => {
    if (!new NoiseResponder(id).actOne(acts[i++ % acts.length] as Uint8Array).ok) throw new Error('refused');
  });
  report.line(`  act one answered by the pool alone: ${int(pool.cpu)}/CPU-s (${int(pool.wall)}/s wall)`);
  if (!session) return;
  const { miner, pool: server } = session;
  for (const size of [64, 1024, 65_536]) {
    const payload = new Uint8Array(size).fill(0x5a);
    const dec = new EncryptedFrameDecoder(server.decryptor, 1 << 20);
    const r = rate(seconds, () => {
      const wire = encryptFrame(miner.encryptor, { extensionType: 0x8000, msgType: 0x1b, payload });
      if (dec.feed(wire)[0]?.kind !== 'frame') throw new Error('frame refused');
    });
    report.line(
      `  transport encrypt+decrypt, ${int(size)} B frames: ${fixed((r.cpu * size) / 1e6)} MB/CPU-s, ` +
        `${int(r.cpu)} frames/CPU-s (${fixed((r.wall * size) / 1e6)} MB/s wall)`,
    );
  }
}

interface Pool {
  server: Server;
  port: number;
  stats: { handshakes: number; frames: number; refused: Map<string, number> };
}

/** The pool side over TCP: handshake, then echo every frame; close on the first refusal. */
async function startPool(id: ResponderIdentity): Promise<Pool> {
  const stats = { handshakes: 0, frames: 0, refused: new Map<string, number>() };
  const refuse = (socket: Socket, why: string): void => {
    stats.refused.set(why, (stats.refused.get(why) ?? 0) + 1);
    socket.destroy();
  };
  const server = createServer((socket) => {
    let pending = Buffer.alloc(0);
    let decoder: EncryptedFrameDecoder | undefined;
    let session: NoiseSession | undefined;
    socket.on('error', () => undefined);
    socket.on('end', () => {
      const err = decoder?.end();
      if (err) refuse(socket, err.code);
    });
    socket.on('data', (chunk: Buffer) => {
      if (!decoder || !session) {
        pending = Buffer.concat([pending, chunk]);
        if (pending.length < ACT_ONE_BYTES) return;
        const answered = new NoiseResponder(id).actOne(pending.subarray(0, ACT_ONE_BYTES));
        if (!answered.ok) return refuse(socket, answered.error.code);
        stats.handshakes++;
        session = answered.session;
        decoder = new EncryptedFrameDecoder(session.decryptor, MAX_PAYLOAD);
        socket.write(answered.reply);
        chunk = pending.subarray(ACT_ONE_BYTES);
      }
      for (const ev of decoder.feed(chunk)) {
        if (ev.kind === 'error') return refuse(socket, ev.error.code);
        stats.frames++;
        socket.write(encryptFrame(session.encryptor, ev.frame));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0, stats };
}

/**
 * A miner's connection: resolves with what happened. An honest miner stops at its first echo;
 * with `untilClose` it counts echoes until the pool closes (how a replay shows: one echo, then out).
 */
function miner(
  port: number,
  authority: Uint8Array,
  afterHandshake: (s: NoiseSession) => Uint8Array[],
  untilClose = false,
): Promise<{ outcome: string; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const done = (outcome: string): void => {
      socket.destroy();
      resolve({ outcome, ms: performance.now() - started });
    };
    const initiator = new NoiseInitiator(authority);
    const socket = connect(port, '127.0.0.1', () => socket.write(initiator.actOne()));
    let buf = Buffer.alloc(0);
    let decoder: EncryptedFrameDecoder | undefined;
    let echoes = 0;
    const closed = (): void => done(`${untilClose ? `${echoes} echo(es), then ` : ''}closed by pool`);
    socket.on('error', closed);
    socket.on('close', closed);
    socket.on('data', (chunk: Buffer) => {
      if (!decoder) {
        buf = Buffer.concat([buf, chunk]);
        if (buf.length < ACT_TWO_BYTES) return;
        const result = initiator.actTwo(buf.subarray(0, ACT_TWO_BYTES));
        if (!result.ok) return done(`miner refused pool: ${result.error.code}`);
        decoder = new EncryptedFrameDecoder(result.value.session.decryptor);
        for (const bytes of afterHandshake(result.value.session)) socket.write(bytes);
        return;
      }
      for (const ev of decoder.feed(chunk)) {
        if (ev.kind === 'error') return done(`bad echo: ${ev.error.code}`);
        echoes++;
        if (!untilClose) return done('echo received');
      }
    });
  });
}

export async function measureRefusals(report: Report): Promise<void> {
  const authority = schnorr.utils.randomSecretKey();
  const pub = schnorr.getPublicKey(authority);
  const pool = await startPool(identity(authority));
  const frame = { extensionType: 0x8000, msgType: 0x1a, payload: new Uint8Array(24).fill(1) };
  const cases: [string, Uint8Array, (s: NoiseSession) => Uint8Array[], boolean?][] = [
    ['honest miner', pub, (s) => [encryptFrame(s.encryptor, frame)]],
    ['garbage after handshake', pub, () => [new Uint8Array(64).fill(0xee)]],
    [
      'flipped ciphertext byte',
      pub,
      (s) => {
        const w = encryptFrame(s.encryptor, frame);
        w[30] = (w[30] as number) ^ 1;
        return [w];
      },
    ],
    [
      'replayed frame',
      pub,
      (s) => {
        const w = encryptFrame(s.encryptor, frame);
        return [w, w];
      },
      true,
    ],
    [
      `over-long frame (> ${int(MAX_PAYLOAD)} B)`,
      pub,
      (s) => [encryptFrame(s.encryptor, { ...frame, payload: new Uint8Array(MAX_PAYLOAD + 1) })],
    ],
    ['wrong authority key', schnorr.getPublicKey(schnorr.utils.randomSecretKey()), () => []],
  ];
  for (const [name, key, send, untilClose] of cases) {
    const r = await miner(pool.port, key, send, untilClose);
    report.line(`  ${name.padEnd(32)} → ${r.outcome} after ${fixed(r.ms, 2)} ms`);
  }
  // A truncated frame: half a frame, then the miner half-closes its side.
  const truncated = await new Promise<string>((resolve) => {
    const initiator = new NoiseInitiator(pub);
    const socket = connect(pool.port, '127.0.0.1', () => socket.write(initiator.actOne()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve('closed by pool'));
    socket.once('data', (chunk: Buffer) => {
      const result = initiator.actTwo(chunk.subarray(0, ACT_TWO_BYTES));
      if (!result.ok) return resolve('handshake failed');
      socket.end(encryptFrame(result.value.session.encryptor, frame).subarray(0, 30));
    });
  });
  report.line(`  ${'truncated frame then FIN'.padEnd(32)} → ${truncated}`);
  const honest = await Promise.all(
    Array.from({ length: 20 }, () => miner(pool.port, pub, (s) => [encryptFrame(s.encryptor, frame)])),
  );
  report.line(
    `  honest miners after the faults: ${honest.filter((h) => h.outcome === 'echo received').length}/20 echoed`,
  );
  report.line(
    `  pool counted: ${pool.stats.handshakes} handshakes, ${pool.stats.frames} frames echoed, refusals ${JSON.stringify(Object.fromEntries(pool.stats.refused))}`,
  );
  await new Promise<void>((resolve) => pool.server.close(() => resolve()));
}

export async function runEdgeSv2(report: Report, argv: string[]): Promise<void> {
  const seconds = Number(argv.find((a) => a.startsWith('--seconds='))?.slice(10) ?? 3);
  report.line(`# edge sv2 — Noise NX layer (${new Date().toISOString()}, load ${load()})`);
  measureNoise(report, seconds);
  await measureRefusals(report);
}
