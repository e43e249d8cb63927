import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

const ISSUER = 'Manjam';

export interface TotpEnrolment {
  secret: string;
  otpauthUrl: string;
  qrDataUrl: string;
}

export async function newTotpEnrolment(label: string): Promise<TotpEnrolment> {
  const secret = generateSecret();
  const otpauthUrl = generateURI({ issuer: ISSUER, label, secret });
  const qrDataUrl = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
  return { secret, otpauthUrl, qrDataUrl };
}

/**
 * The RFC 6238 time step a 6-digit `code` belongs to when it is the current code, or one 30 s step
 * of clock drift either way; null when it is not valid. The caller accepts each step once.
 */
export async function totpStep(secret: string, code: string, nowMs: number): Promise<number | null> {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  try {
    const result = await verify({
      secret,
      token,
      epoch: Math.floor(nowMs / 1000),
      epochTolerance: 30,
      period: 30,
    });
    return result.valid ? Math.floor(nowMs / 30_000) + result.delta : null;
  } catch {
    return null;
  }
}
