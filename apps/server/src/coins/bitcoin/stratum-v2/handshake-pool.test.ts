import { schnorr } from '@noble/curves/secp256k1.js';
import {
  ellswiftKeypair,
  encryptFrame,
  EncryptedFrameDecoder,
  NoiseInitiator,
  noiseSession,
  signCertificate,
} from '@manjam/protocol/sv2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HANDSHAKE_LIMITS, Sv2HandshakePool, type HandshakeLimits } from './handshake-pool.js';

const authority = schnorr.utils.randomSecretKey();
const staticKey = ellswiftKeypair();
const now = Math.floor(Date.now() / 1000);
const identity = {
  staticKey,
  certificate: signCertificate(
    { validFrom: now - 60, notValidAfter: now + 3600 },
    staticKey.xonly,
    authority,
  ),
};

const pools: Sv2HandshakePool[] = [];
function handshakes(limits: Partial<HandshakeLimits> = {}): Sv2HandshakePool {
  const pool = new Sv2HandshakePool({ ...HANDSHAKE_LIMITS, threads: 1, ...limits });
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

describe('V2 handshakes on their own thread', () => {
  it('answers a miner with an act two its authority key accepts, and both sides then read each other', async () => {
    const miner = new NoiseInitiator(schnorr.getPublicKey(authority));
    const outcome = await handshakes().handshake('10.0.0.1', miner.actOne(), identity, () => true);
    expect(outcome.kind).toBe('answered');
    if (outcome.kind !== 'answered') return;
    const result = miner.actTwo(outcome.reply);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const pool = noiseSession(outcome.keys);
    const toPool = new EncryptedFrameDecoder(pool.decryptor, 1024).feed(
      encryptFrame(result.value.session.encryptor, {
        extensionType: 0,
        msgType: 0x1a,
        payload: new Uint8Array([1, 2, 3]),
      }),
    );
    expect(toPool).toEqual([
      { kind: 'frame', frame: { extensionType: 0, msgType: 0x1a, payload: new Uint8Array([1, 2, 3]) } },
    ]);
    const toMiner = new EncryptedFrameDecoder(result.value.session.decryptor, 1024).feed(
      encryptFrame(pool.encryptor, { extensionType: 0, msgType: 0x1b, payload: new Uint8Array([4, 5]) }),
    );
    expect(toMiner).toEqual([
      { kind: 'frame', frame: { extensionType: 0, msgType: 0x1b, payload: new Uint8Array([4, 5]) } },
    ]);
  });

  it('refuses an act one of the wrong size without stopping the thread', async () => {
    const pool = handshakes();
    expect(await pool.handshake('10.0.0.1', new Uint8Array(10), identity, () => true)).toEqual({
      kind: 'refused',
      error: 'bad-length',
    });
    const miner = new NoiseInitiator(schnorr.getPublicKey(authority));
    expect((await pool.handshake('10.0.0.1', miner.actOne(), identity, () => true)).kind).toBe('answered');
  });

  it('sheds an address past its burst while another address is still answered', async () => {
    const pool = handshakes({ perAddress: { perSecond: 0.001, burst: 3 } });
    const flood = await Promise.all(
      Array.from({ length: 5 }, () =>
        pool.handshake('10.0.0.66', new NoiseInitiator(authority).actOne(), identity, () => true),
      ),
    );
    expect(flood.map((o) => o.kind)).toEqual(['answered', 'answered', 'answered', 'shed', 'shed']);
    const honest = await pool.handshake(
      '10.0.0.7',
      new NoiseInitiator(authority).actOne(),
      identity,
      () => true,
    );
    expect(honest.kind).toBe('answered');
  });

  it('refuses new handshakes once the pool budget is waiting or running', async () => {
    const pool = handshakes({ maxPending: 2 });
    const all = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        pool.handshake(`10.0.1.${i}`, new NoiseInitiator(authority).actOne(), identity, () => true),
      ),
    );
    expect(all.map((o) => o.kind)).toEqual(['answered', 'answered', 'shed', 'shed']);
    expect(all[2]).toEqual({ kind: 'shed', reason: 'busy' });
  });

  it('starts its threads when a V2 port opens, before any miner connects, and stops them once idle after the last port closes', async () => {
    const pool = handshakes({ idleMs: 50 });
    pool.retain();
    expect(pool.threads).toBe(1);
    const miner = new NoiseInitiator(schnorr.getPublicKey(authority));
    expect((await pool.handshake('10.0.0.1', miner.actOne(), identity, () => true)).kind).toBe('answered');
    expect(pool.threads).toBe(1);
    pool.release();
    await vi.waitFor(() => expect(pool.threads).toBe(0));
  });

  it('drops the handshake of a connection that closed while it waited, without computing it', async () => {
    const pool = handshakes();
    const outcome = await pool.handshake(
      '10.0.0.1',
      new NoiseInitiator(authority).actOne(),
      identity,
      () => false,
    );
    expect(outcome).toEqual({ kind: 'dropped' });
    expect(pool.counts).toMatchObject({ answered: 0, dropped: 1 });
  });
});
