// The pool's Stratum V2 authority (SV2 §4.5.3, §4.7): a BIP340 key whose public half miners are
// given (in base58check, the form SRI's translator and Braiins OS take), signing a certificate for
// the pool's Noise static key. The secret comes from `stratum.v2.authoritySecretKey`
// (MANJAM_STRATUM_V2_AUTHORITY_SECRET_KEY) or from <dataDir>/sv2-authority.key, written with mode
// 0600 at first start. The static key is new each start (miners pin the authority, not it); its
// certificate is signed for `certificateValiditySeconds` and signed again once less than a tenth
// of that is left, so a connection never receives one about to expire.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { schnorr } from '@noble/curves/secp256k1.js';
import {
  decodeAuthoritySecretKey,
  ellswiftKeypair,
  encodeAuthorityPublicKey,
  encodeAuthoritySecretKey,
  signCertificate,
  type EllswiftKeypair,
  type ResponderIdentity,
  type SignatureNoiseMessage,
} from '@manjam/protocol/sv2';
import type { Config } from '../../../config/index.js';

export const AUTHORITY_KEY_FILE = 'sv2-authority.key';
/** Seconds a certificate is dated back, for miners whose clock runs behind the pool's. */
const BACKDATE_SECONDS = 60;

export class Sv2Authority {
  readonly publicKey: Uint8Array;
  /** The public key as miners configure it (base58check with SV2's version prefix). */
  readonly publicKeyText: string;
  private readonly staticKey: EllswiftKeypair = ellswiftKeypair();
  private certificate: SignatureNoiseMessage | undefined;

  constructor(
    private readonly secretKey: Uint8Array,
    private readonly validitySeconds: number,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.publicKey = schnorr.getPublicKey(secretKey);
    this.publicKeyText = encodeAuthorityPublicKey(this.publicKey);
  }

  /** What a connection's Noise responder answers with: the static key and a fresh-enough certificate. */
  identity(): ResponderIdentity {
    const now = this.now();
    const renewAt = (this.certificate?.notValidAfter ?? 0) - Math.ceil(this.validitySeconds / 10);
    if (!this.certificate || now >= renewAt) {
      this.certificate = signCertificate(
        { validFrom: now - BACKDATE_SECONDS, notValidAfter: now + this.validitySeconds },
        this.staticKey.xonly,
        this.secretKey,
      );
    }
    return { staticKey: this.staticKey, certificate: this.certificate };
  }
}

/**
 * The authority public key (base58check) from the configured secret or the dataDir key file,
 * without generating one: an API process running apart from Stratum lists V2 ports with it. It
 * shows the key miners need only when both processes read the same secret (the config key /
 * MANJAM_STRATUM_V2_AUTHORITY_SECRET_KEY, or a shared dataDir); undefined until the file exists.
 */
export async function readAuthorityPublicKey(config: Config): Promise<string | undefined> {
  const configured = config.stratum.v2.authoritySecretKey;
  let text = configured;
  if (text === undefined) {
    try {
      text = await readFile(join(config.dataDir, AUTHORITY_KEY_FILE), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
  const secret = decodeAuthoritySecretKey(text);
  return secret ? encodeAuthorityPublicKey(schnorr.getPublicKey(secret)) : undefined;
}

/** The configured authority secret, or the one under dataDir (generated there at first start). */
export async function loadAuthority(config: Config): Promise<Sv2Authority> {
  const v2 = config.stratum.v2;
  const validity = v2.certificateValiditySeconds;
  if (v2.authoritySecretKey !== undefined) {
    const secret = decodeAuthoritySecretKey(v2.authoritySecretKey);
    if (!secret) throw new Error('stratum.v2.authoritySecretKey is not a base58check secp256k1 secret key');
    return new Sv2Authority(secret, validity);
  }
  const file = join(config.dataDir, AUTHORITY_KEY_FILE);
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== undefined) {
    const secret = decodeAuthoritySecretKey(text);
    if (!secret) throw new Error(`${file} does not hold a base58check secp256k1 secret key`);
    return new Sv2Authority(secret, validity);
  }
  let secret: Uint8Array = randomBytes(32);
  while (!decodeAuthoritySecretKey(encodeAuthoritySecretKey(secret))) secret = randomBytes(32);
  await mkdir(config.dataDir, { recursive: true });
  // 'wx': two processes starting at once on one dataDir never overwrite each other's key.
  await writeFile(file, `${encodeAuthoritySecretKey(secret)}\n`, { mode: 0o600, flag: 'wx' });
  return new Sv2Authority(secret, validity);
}
