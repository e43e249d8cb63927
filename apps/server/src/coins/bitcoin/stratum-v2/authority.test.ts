import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schnorr } from '@noble/curves/secp256k1.js';
import {
  checkCertificate,
  decodeAuthorityPublicKey,
  encodeAuthoritySecretKey,
  NoiseInitiator,
  NoiseResponder,
} from '@manjam/protocol/sv2';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/index.js';
import { loadAuthority, Sv2Authority } from './authority.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
const dataDir = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'manjam-sv2-authority-'));
  dirs.push(dir);
  return dir;
};

describe('the Stratum V2 authority', () => {
  it('generates its key once under dataDir and reads the same key on the next start', async () => {
    const config = parseConfig({ dataDir: await dataDir() });
    const first = await loadAuthority(config);
    const second = await loadAuthority(config);
    expect(second.publicKeyText).toBe(first.publicKeyText);
    expect(decodeAuthorityPublicKey(first.publicKeyText)).toEqual(first.publicKey);
  });

  it('takes a configured secret key instead, and refuses one that is not a key', async () => {
    const secret = schnorr.utils.randomSecretKey();
    const dir = await dataDir();
    const configured = await loadAuthority(
      parseConfig({
        dataDir: dir,
        stratum: { v2: { authoritySecretKey: encodeAuthoritySecretKey(secret) } },
      }),
    );
    expect(configured.publicKey).toEqual(schnorr.getPublicKey(secret));
    await expect(
      loadAuthority(parseConfig({ dataDir: dir, stratum: { v2: { authoritySecretKey: 'not-a-key' } } })),
    ).rejects.toThrow(/authoritySecretKey/);
  });

  it('hands miners a certificate they accept, and signs a new one before the old one expires', () => {
    let now = 1_800_000_000;
    const authority = new Sv2Authority(schnorr.utils.randomSecretKey(), 3_600, () => now);
    const first = authority.identity().certificate;
    const miner = new NoiseInitiator(authority.publicKey, { now: () => now });
    const answered = new NoiseResponder(authority.identity()).actOne(miner.actOne());
    expect(answered.ok && miner.actTwo(answered.reply).ok).toBe(true);
    now += 3_000; // 600 s left: still above a tenth of the validity
    expect(authority.identity().certificate).toBe(first);
    now += 300; // 300 s left: renewed
    const renewed = authority.identity();
    expect(renewed.certificate).not.toBe(first);
    expect(renewed.certificate.notValidAfter).toBe(now + 3_600);
    expect(
      checkCertificate(renewed.certificate, renewed.staticKey.xonly, authority.publicKey, now + 3_500),
    ).toBe('ok');
  });
});
