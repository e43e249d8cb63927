// BIP324's published vectors (bitcoin/bips, bip-0324/*.csv, copied unchanged into packages/protocol/test/sv2/vectors).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  bytesToNumber,
  ellswiftDecode,
  ellswiftEcdhXonly,
  ellswiftEncodeX,
  ellswiftKeypair,
  numberTo32Bytes,
  v2Ecdh,
  xswiftecInv,
} from './ellswift.js';

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function csv(name: string): Record<string, string>[] {
  const text = readFileSync(new URL(`../../test/sv2/vectors/${name}.csv`, import.meta.url), 'utf8');
  const [head, ...rows] = text.trim().split('\n');
  const cols = (head ?? '').split(',');
  return rows.map((row) => {
    const cells = row.split(',');
    return Object.fromEntries(cols.map((c, i) => [c, cells[i] ?? '']));
  });
}

describe('ElligatorSwift (BIP324)', () => {
  it('decodes every 64-byte encoding of ellswift_decode_test_vectors.csv to its x', () => {
    const rows = csv('ellswift_decode_test_vectors');
    expect(rows.length).toBe(76);
    for (const row of rows) {
      expect(toHex(ellswiftDecode(hex(row.ellswift ?? ''))), row.comment).toBe(row.x);
    }
  });

  it('inverts x for each of the 8 cases exactly as xswiftec_inv_test_vectors.csv says', () => {
    const rows = csv('xswiftec_inv_test_vectors');
    expect(rows.length).toBe(32);
    for (const row of rows) {
      const u = bytesToNumber(hex(row.u ?? ''));
      const x = bytesToNumber(hex(row.x ?? ''));
      for (let c = 0; c < 8; c++) {
        const t = xswiftecInv(x, u, c);
        const want = row[`case${c}_t`] ?? '';
        expect(t === undefined ? '' : toHex(numberTo32Bytes(t)), `${row.comment} case ${c}`).toBe(want);
      }
    }
  });

  it('computes the x-only ECDH point and the tagged shared secret of packet_encoding_test_vectors.csv', () => {
    const rows = csv('packet_encoding_test_vectors');
    expect(rows.length).toBe(7);
    for (const row of rows) {
      const priv = hex(row.in_priv_ours ?? '');
      const ours = hex(row.in_ellswift_ours ?? '');
      const theirs = hex(row.in_ellswift_theirs ?? '');
      expect(toHex(ellswiftDecode(ours))).toBe(row.mid_x_ours);
      expect(toHex(ellswiftDecode(theirs))).toBe(row.mid_x_theirs);
      expect(toHex(ellswiftEcdhXonly(theirs, priv))).toBe(row.mid_x_shared);
      const initiating = row.in_initiating === '1';
      expect(toHex(v2Ecdh(priv, ours, theirs, initiating))).toBe(row.mid_shared_secret);
    }
  });

  it('encodes a public key so that it decodes back to the same x, and both sides agree on the secret', () => {
    for (let i = 0; i < 8; i++) {
      const a = ellswiftKeypair();
      const b = ellswiftKeypair();
      expect(toHex(ellswiftDecode(a.ellswift))).toBe(toHex(a.xonly));
      expect(toHex(ellswiftDecode(ellswiftEncodeX(b.xonly)))).toBe(toHex(b.xonly));
      const sa = v2Ecdh(a.secretKey, a.ellswift, b.ellswift, true);
      const sb = v2Ecdh(b.secretKey, b.ellswift, a.ellswift, false);
      expect(toHex(sa)).toBe(toHex(sb));
    }
  });
});
