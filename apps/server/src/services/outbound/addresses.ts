import { isIPv4, isIPv6 } from 'node:net';

// Which addresses a request the pool sends to a URL a user gave (alert webhooks, browser push
// endpoints) may reach (pure). Such a request must never be turned against the pool's own
// network: every address the host resolves to must be a public unicast address. Refused (IANA special-purpose registries):
//   IPv4: 0/8 "this network", 10/8, 172.16/12, 192.168/16 private, 100.64/10 shared (CGNAT),
//         127/8 loopback, 169.254/16 link-local, 192.0.0/24 protocol assignments, 192.0.2/24,
//         198.51.100/24, 203.0.113/24 documentation, 192.88.99/24 6to4 relay, 198.18/15
//         benchmarking, 224/4 multicast, 240/4 reserved (and 255.255.255.255).
//   IPv6: anything outside 2000::/3 global unicast (so ::, ::1, fc00::/7 unique-local, fe80::/10
//         link-local, ff00::/8 multicast, 100::/64 discard, IPv4-compatible ::/96); inside it,
//         2001::/23 protocol assignments (Teredo included), 2001:db8::/32 and 3fff::/20
//         documentation, 2002::/16 6to4. IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::/96)
//         addresses are judged by the IPv4 address they carry.

type Range = readonly [base: readonly number[], bits: number];

const V4_REFUSED: readonly Range[] = [
  [[0, 0, 0, 0], 8],
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10],
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24],
  [[192, 0, 2, 0], 24],
  [[192, 88, 99, 0], 24],
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15],
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4],
  [[240, 0, 0, 0], 4],
];

const V6_REFUSED_IN_GLOBAL: readonly Range[] = [
  [[0x20, 0x01, 0x00, 0x00], 23],
  [[0x20, 0x01, 0x0d, 0xb8], 32],
  [[0x20, 0x02], 16],
  [[0x3f, 0xff], 20],
];

function inRange(bytes: readonly number[], [base, bits]: Range): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const take = Math.min(8, bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((base[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function v4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address in any textual form (`::`, embedded dotted IPv4, zone id). */
export function ipv6Bytes(address: string): number[] {
  const text = address.replace(/%.*$/, '');
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a = 0, b = 0, c = 0, d = 0] = v4Bytes(piece);
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(parseInt(piece, 16));
    }
    return out;
  };
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const words = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

function v4Public(bytes: readonly number[]): boolean {
  return !V4_REFUSED.some((range) => inRange(bytes, range));
}

/** True when `address` (an IP literal) is one a user-aimed request may be sent to; false for anything else. */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return v4Public(v4Bytes(address));
  if (!isIPv6(address)) return false;
  const bytes = ipv6Bytes(address);
  const mapped = inRange(bytes, [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96]);
  const nat64 = inRange(bytes, [[0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96]);
  if (mapped || nat64) return v4Public(bytes.slice(12));
  if (!inRange(bytes, [[0x20], 3])) return false;
  return !V6_REFUSED_IN_GLOBAL.some((range) => inRange(bytes, range));
}

/** The loopback literals a dev/test pool may send to over http when alerts.webhook.allowLoopbackHttp is on. */
export function isLoopbackLiteral(host: string): boolean {
  return host === '127.0.0.1' || host === '::1';
}
