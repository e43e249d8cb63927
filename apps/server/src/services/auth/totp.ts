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

/** True when `code` is the current 6-digit code (one 30 s step of clock drift either way). */
export async function checkTotp(secret: string, code: string, nowMs: number): Promise<boolean> {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return false;
  try {
    const result = await verify({ secret, token, epoch: Math.floor(nowMs / 1000), epochTolerance: 30 });
    return result.valid;
  } catch {
    return false;
  }
}
