import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * AES-256-GCM for secrets stored at rest (TOTP secrets, rig-management tokens, alert webhook URLs).
 * Stored form: "v1:" + base64url(iv[12] | tag[16] | ciphertext).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string | Buffer) {
    this.key = createHash('sha256').update(keyMaterial).digest();
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /**
   * A stable opaque public id for an internal one (e.g. `worker:17`): 16 base64url characters of
   * an HMAC under this key, so public answers never carry a sequential id that could be walked.
   */
  opaqueId(internal: string): string {
    return createHmac('sha256', this.key).update(`opaque-id:${internal}`).digest('base64url').slice(0, 16);
  }

  /** An HMAC-SHA256 of `data` under this key (base64url), for values the server signs and reads back. */
  mac(data: string): string {
    return createHmac('sha256', this.key).update(`mac:${data}`).digest('base64url');
  }

  decrypt(stored: string): string {
    if (!stored.startsWith('v1:')) throw new Error('unknown secret format');
    const raw = Buffer.from(stored.slice(3), 'base64url');
    if (raw.length < 28) throw new Error('secret too short');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/**
 * The key from config.auth.secret, else one generated once under dataDir/secret.key (mode 0600)
 * and reused on every start.
 */
export function loadSecretKey(secret: string | undefined, dataDir: string): string {
  if (secret) return secret;
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}

/**
 * The pool's one SecretBox: every process of a deployment must build it from the same key
 * (auth.secret, or a shared dataDir) to read what another sealed, e.g. the alert webhook URL the
 * api process seals and the accounting process's alerts loop opens.
 */
export function secretBoxFor(config: { auth?: { secret?: string | undefined }; dataDir: string }): SecretBox {
  return new SecretBox(loadSecretKey(config.auth?.secret, config.dataDir));
}
