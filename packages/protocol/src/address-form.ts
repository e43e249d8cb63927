/**
 * What a payout address looks like before it is decoded: its start, its alphabet and its length.
 * Each family describes its own addresses with these forms (bitcoin in address-forms.ts, Monero in
 * monero/address.ts, Kaspa in kaspa/address.ts), derived from the same network parameters its
 * decoder reads. The server's check (address.ts `isPayableAddress`) requires a form before it
 * decodes, and the web's quick check is the form alone: every address the pool accepts passes the
 * web's check by construction. Pure: no Buffer, no I/O (the web bundle carries this file).
 */

export const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** The bech32 alphabet (also Kaspa's base32). */
export const BECH32_ALPHABET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

export interface AddressForm {
  /**
   * `bech32`: a lower-case prefix with its separator (`bc1`, `rltc1`, `kaspa:`), then characters
   * of the bech32 alphabet, the whole address in one case. `base58`: base58 characters only, the
   * first of them one of `starts`.
   */
  alphabet: 'bech32' | 'base58';
  /** The prefixes (bech32) or the first characters (base58) this form's addresses have. */
  starts: readonly string[];
  /** The lengths of what follows the prefix (bech32), or of the whole address (base58). */
  lengths: readonly number[];
}

const BASE58_CHARS = new RegExp(`^[${BASE58_ALPHABET}]+$`);
const BECH32_CHARS = new RegExp(`^[${BECH32_ALPHABET}]+$`);

/** Whether an address has this form (no checksum, no decoding: that is the family's decoder). */
export function matchesAddressForm(form: AddressForm, address: string): boolean {
  if (form.alphabet === 'base58') {
    return (
      form.lengths.includes(address.length) &&
      BASE58_CHARS.test(address) &&
      form.starts.some((lead) => address.startsWith(lead))
    );
  }
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) return false;
  return form.starts.some((prefix) => {
    const data = lower.slice(prefix.length);
    return lower.startsWith(prefix) && form.lengths.includes(data.length) && BECH32_CHARS.test(data);
  });
}

/** Characters of a number in base58 (0 has none). */
export function base58Length(value: bigint): number {
  let length = 0;
  for (let rest = value; rest > 0n; rest /= 58n) length += 1;
  return length;
}

/** The base58 digit of a number at a position (0 = last). */
export function base58Digit(value: bigint, position: number): string {
  return BASE58_ALPHABET[Number((value / 58n ** BigInt(position)) % 58n)] ?? '';
}

/** The base58 characters from `first` to `last` (inclusive) in alphabet order. */
export function base58Range(first: string, last: string): string[] {
  const from = BASE58_ALPHABET.indexOf(first);
  const to = BASE58_ALPHABET.indexOf(last);
  return [...BASE58_ALPHABET.slice(from, to + 1)];
}

/** Characters of `bytes` bytes in base32 (5 bits a character, the last one padded). */
export function base32Length(bytes: number): number {
  return Math.ceil((bytes * 8) / 5);
}
