import { describe, expect, it } from 'vitest';
import { ipv6Bytes, isPublicAddress } from './addresses.js';
import { checkedAddress, OutboundRefused, parseOutboundUrl, type Resolve } from './policy.js';

describe('webhook address rules', () => {
  it.each([
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8'],
    ['100.64.0.1', 'shared address space (CGNAT)'],
    ['100.127.255.254', 'shared address space (CGNAT)'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation TEST-NET-1'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['192.168.1.1', 'private 192.168/16'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.1', 'benchmarking'],
    ['198.51.100.7', 'documentation TEST-NET-2'],
    ['203.0.113.9', 'documentation TEST-NET-3'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses IPv4 %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback, written in full'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback in hex'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['0:0:0:0:0:ffff:192.168.0.1', 'IPv4-mapped private, written in full'],
    ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
    ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
    ['64:ff9b:1::1', 'NAT64 local use'],
    ['100::1', 'discard'],
    ['fc00::1', 'unique local'],
    ['fd12:3456:789a::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['febf::1', 'link-local, top of the range'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast, global scope'],
    ['2001::1', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['2001:10::1', 'ORCHID (protocol assignments)'],
    ['2002:c0a8:101::1', '6to4'],
    ['3fff::1', 'documentation (3fff::/20)'],
    ['4000::1', 'outside global unicast'],
  ])('refuses IPv6 %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
  ])('accepts the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses what is not an IP literal at all', () => {
    expect(isPublicAddress('example.com')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });

  it('reads every textual IPv6 form into the same 16 bytes', () => {
    const full = ipv6Bytes('0000:0000:0000:0000:0000:ffff:0a00:0001');
    expect(ipv6Bytes('::ffff:10.0.0.1')).toEqual(full);
    expect(ipv6Bytes('::ffff:a00:1')).toEqual(full);
    expect(ipv6Bytes('2001:db8::')).toEqual([0x20, 0x01, 0x0d, 0xb8, ...new Array<number>(12).fill(0)]);
  });
});

describe('outbound URL rules (webhooks, push endpoints)', () => {
  const production = { allowLoopbackHttp: false };
  const dev = { allowLoopbackHttp: true };
  const refusal = (url: string, limits = production) => {
    try {
      parseOutboundUrl(url, limits);
      return null;
    } catch (error) {
      return error instanceof OutboundRefused ? error.message : 'other error';
    }
  };

  it('accepts an https bot URL', () => {
    expect(refusal('https://discord.com/api/webhooks/1/abc')).toBeNull();
    expect(refusal('https://api.telegram.org/bot123:abc/sendMessage?chat_id=42')).toBeNull();
  });

  it('refuses http, other schemes, credentials in the URL and over-long URLs', () => {
    expect(refusal('http://discord.com/api/webhooks/1/abc')).toBe('the URL must start with https://');
    expect(refusal('ftp://example.com/x')).toBe('the URL must start with https://');
    expect(refusal('file:///etc/passwd')).toBe('the URL must start with https://');
    expect(refusal('https://user:pw@example.com/')).toBe('the URL may not carry a user name or password');
    expect(refusal(`https://example.com/${'a'.repeat(2_000)}`)).toBe('the URL is too long');
    expect(refusal('not a url')).toBe('not a valid URL');
  });

  it('allows http only to the literal loopback addresses, and only when the config says so', () => {
    expect(refusal('http://127.0.0.1:8080/hook')).toBe('the URL must start with https://');
    expect(refusal('http://127.0.0.1:8080/hook', dev)).toBeNull();
    expect(refusal('http://[::1]:8080/hook', dev)).toBeNull();
    expect(refusal('http://localhost:8080/hook', dev)).toBe('the URL must start with https://');
    expect(refusal('http://10.0.0.1/hook', dev)).toBe('the URL must start with https://');
    expect(refusal('http://127.0.0.2/hook', dev)).toBe('the URL must start with https://');
  });
});

describe('outbound host resolution', () => {
  const url = new URL('https://hooks.example.com/x');
  const limits = { allowLoopbackHttp: false };
  const answering =
    (...addresses: string[]) =>
    (host: string) => {
      expect(host).toBe('hooks.example.com');
      return Promise.resolve(
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    };
  const refusal = (resolve: Resolve, target = url) =>
    checkedAddress(target, limits, resolve).then(
      () => null,
      (error: unknown) => (error as Error).message,
    );

  it('connects to the first address when every address is public', async () => {
    await expect(checkedAddress(url, limits, answering('2606:4700::1111', '1.1.1.1'))).resolves.toEqual({
      address: '2606:4700::1111',
      family: 6,
    });
  });

  it('refuses a host with one private address among public ones (a split answer)', async () => {
    expect(await refusal(answering('8.8.8.8', '10.0.0.1'))).toBe(
      'the host hooks.example.com resolves to a private or reserved address',
    );
    expect(await refusal(answering('8.8.8.8', '::ffff:127.0.0.1'))).toMatch(/private or reserved/);
  });

  it('refuses a host that does not resolve or has no address', async () => {
    expect(await refusal(() => Promise.reject(new Error('ENOTFOUND')))).toBe(
      'the host hooks.example.com could not be resolved',
    );
    expect(await refusal(answering())).toBe('the host hooks.example.com has no address');
  });

  it('judges an IP literal without asking the resolver', async () => {
    const never: Resolve = () => Promise.reject(new Error('asked'));
    expect(await refusal(never, new URL('https://[::ffff:7f00:1]/x'))).toMatch(/private or reserved/);
    expect(await refusal(never, new URL('https://169.254.169.254/x'))).toMatch(/private or reserved/);
    expect(await refusal(never, new URL('https://1.1.1.1/x'))).toBeNull();
    // The URL parser writes decimal, hex and short IPv4 forms as dotted quads before they are judged.
    expect(await refusal(never, new URL('https://2130706433/x'))).toMatch(/private or reserved/);
    expect(await refusal(never, new URL('https://0x7f000001/x'))).toMatch(/private or reserved/);
    expect(await refusal(never, new URL('https://10.1/x'))).toMatch(/private or reserved/);
  });
});
