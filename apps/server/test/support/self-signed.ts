// A self-signed certificate for TLS Stratum ports in tests, made by Debian's openssl.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Certificate and key files for CN=127.0.0.1 (a port's `tls` config). */
export function selfSignedCertificate(): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'manjam-tls-'));
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  args.push('-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1');
  execFileSync('openssl', args, { stdio: 'ignore' });
  return { cert, key };
}
