import { describe, expect, it } from 'vitest';
import {
  decodeKaspaAddress,
  encodeKaspaAddress,
  isKaspaAddress,
  kaspaNetworkOf,
  kaspaAddressOfScript,
  kaspaPayToAddressScript,
  KaspaAddressError,
  type KaspaAddress,
} from './address.js';
import { bytesToHex, hexToBytes } from './bytes.js';
import { MAINNET_BLOCK } from '../../test/kaspa/test-fixtures.js';

// kaspad util/address_test.go (TestAddresses, TestDecodeAddressErrorConditions).
const VALID: {
  address: string;
  network: KaspaAddress['network'];
  kind: KaspaAddress['kind'];
  payload: string;
}[] = [
  {
    address: 'kaspa:qr35ennsep3hxfe7lnz5ee7j5jgmkjswsn35ennsep3hxfe7ln35cdv0dy335',
    network: 'mainnet',
    kind: 'pubkey',
    payload: 'e34cce70c86373273efcc54ce7d2a491bb4a0e84e34cce70c86373273efce34c',
  },
  {
    address: 'kaspa:qq80qvqs0lfxuzmt7sz3909ze6camq9d4t35ennsep3hxfe7ln35cvfqgz3z8',
    network: 'mainnet',
    kind: 'pubkey',
    payload: '0ef030107fd26e0b6bf40512bca2ceb1dd80adaae34cce70c86373273efce34c',
  },
  {
    address: 'kaspatest:qputx94qseratdmjs0j395mq8u03er0x3l35ennsep3hxfe7ln35ckquw528z',
    network: 'testnet',
    kind: 'pubkey',
    payload: '78b316a08647d5b77283e512d3603f1f1c8de68fe34cce70c86373273efce34c',
  },
  {
    address: 'kaspa:qyp0r5mcq4rd5grj3652ra09u5dcgwqq9ntuswp247nama5quyj40eq03sc2dkx',
    network: 'mainnet',
    kind: 'pubkey-ecdsa',
    payload: '02f1d3780546da20728ea8a1f5e5e51b8438002cd7c8382aafa7ddf680e12557e4',
  },
  {
    address: 'kaspa:pr5vxqxg0xrwl2zvxlq9rxffqx00sm44kn5vxqxg0xrwl2zvxl5vxyhvsake2',
    network: 'mainnet',
    kind: 'scripthash',
    payload: 'e8c300c87986efa84c37c0519929019ef86eb5b4e8c300c87986efa84c37e8c3',
  },
  {
    address: 'kaspatest:przhjdpv93xfygpqtckdc2zkzuzqeyj2pt5vxqxg0xrwl2zvxl5vx35yyy2h9',
    network: 'testnet',
    kind: 'scripthash',
    payload: 'c579342c2c4c9220205e2cdc285617040c924a0ae8c300c87986efa84c37e8c3',
  },
];

function reasonOf(address: string, network?: KaspaAddress['network']): string {
  try {
    decodeKaspaAddress(address, network);
    return 'valid';
  } catch (error) {
    return error instanceof KaspaAddressError ? error.reason : String(error);
  }
}

describe('Kaspa addresses', () => {
  it.each(VALID)('decodes $address and encodes it back', ({ address, network, kind, payload }) => {
    const decoded = decodeKaspaAddress(address);
    expect({ ...decoded, payload: bytesToHex(decoded.payload) }).toEqual({ network, kind, payload });
    expect(encodeKaspaAddress(decoded)).toBe(address);
    expect(isKaspaAddress(address, network)).toBe(true);
    expect(isKaspaAddress(address.toUpperCase(), network)).toBe(true);
  });

  it('refuses a bad checksum, naming the checksum', () => {
    expect(reasonOf('kaspa:qr35ennsep3hxfe7lnz5ee7j5jgmkjswss74as46gx')).toBe('checksum');
    const flipped = 'kaspa:qr35ennsep3hxfe7lnz5ee7j5jgmkjswsn35ennsep3hxfe7ln35cdv0dy336';
    expect(isKaspaAddress(flipped, 'mainnet')).toBe(false);
  });

  it('refuses another network’s address, an unknown prefix and an unknown version', () => {
    expect(reasonOf('kaspatest:qqq65mvpxcmajeq44n2n8vfn6u9f8l4zsy0xez0tzw', 'mainnet')).toBe('network');
    expect(reasonOf('bitcoincash:qpzry9x8gf2tvdw0s3jn54khce6mua7lcw20ayyn')).toBe('network');
    expect(reasonOf('kaspasim:raskzctpv9skzctpv9skzctpv9skzctpvy37ct7zafpv9skzctpvymmnd3gh8')).toBe(
      'unsupported',
    );
    expect(reasonOf('kaspasim:raskzcg58mth0an')).toBe('unsupported');
    expect(isKaspaAddress(VALID[0]?.address ?? '', 'testnet')).toBe(false);
  });

  it('maps the pool network setting to an address network, the dev chain (regtest) to simnet', () => {
    expect(kaspaNetworkOf('mainnet')).toBe('mainnet');
    expect(kaspaNetworkOf('testnet')).toBe('testnet');
    expect(kaspaNetworkOf('regtest')).toBe('simnet');
  });

  it('refuses mixed case, foreign characters and a missing prefix', () => {
    expect(reasonOf('kaspa:Qr35ennsep3hxfe7lnz5ee7j5jgmkjswsn35ennsep3hxfe7ln35cdv0dy335')).toBe('format');
    expect(reasonOf('kaspa:qr35ennsep3hxfe7lnz5ee7j5jgmkjswsn35ennsep3hxfe7ln35cdv0dy33b')).toBe('format');
    expect(reasonOf('qr35ennsep3hxfe7lnz5ee7j5jgmkjswsn35ennsep3hxfe7ln35cdv0dy335')).toBe('format');
    expect(isKaspaAddress('', 'mainnet')).toBe(false);
  });

  it('encodes each network with its prefix (kaspa, kaspatest, kaspadev, kaspasim)', () => {
    const payload = hexToBytes(VALID[0]?.payload ?? '', 'payload');
    for (const [network, prefix] of [
      ['mainnet', 'kaspa:'],
      ['testnet', 'kaspatest:'],
      ['devnet', 'kaspadev:'],
      ['simnet', 'kaspasim:'],
    ] as const) {
      const address = encodeKaspaAddress({ network, kind: 'pubkey', payload });
      expect(address.startsWith(prefix)).toBe(true);
      expect(decodeKaspaAddress(address, network).payload).toEqual(payload);
    }
    expect(() => encodeKaspaAddress({ network: 'mainnet', kind: 'pubkey-ecdsa', payload })).toThrow(
      RangeError,
    );
  });
});

describe('Kaspa pay-to-address scripts', () => {
  it('builds kaspad’s PayToAddrScript scripts (txscript standard_test.go)', () => {
    const p2pk = kaspaPayToAddressScript(VALID[0]?.address ?? '');
    expect(p2pk.version).toBe(0);
    expect(bytesToHex(p2pk.script)).toBe(`20${VALID[0]?.payload}ac`);
    const p2sh = kaspaPayToAddressScript(VALID[4]?.address ?? '');
    expect(bytesToHex(p2sh.script)).toBe(`aa20${VALID[4]?.payload}87`);
    const ecdsa = kaspaPayToAddressScript(VALID[3]?.address ?? '');
    expect(bytesToHex(ecdsa.script)).toBe(`21${VALID[3]?.payload}ab`);
  });

  it('recognises who a real mainnet coinbase pays, and the script of that address is the coinbase’s', () => {
    const script = hexToBytes(MAINNET_BLOCK.coinbaseScript, 'script');
    expect(kaspaAddressOfScript({ version: 0, script }, 'mainnet')).toBe(MAINNET_BLOCK.coinbaseAddress);
    expect(bytesToHex(kaspaPayToAddressScript(MAINNET_BLOCK.coinbaseAddress).script)).toBe(
      MAINNET_BLOCK.coinbaseScript,
    );
    // An ECDSA miner's script from a mainnet coinbase payload (kaspa-rest-server's test).
    const ecdsa = hexToBytes(
      '21036441a8148e58123d99bf62777c35a4c7eab682fda9764e7b8047a94c0de014d5ab',
      'script',
    );
    expect(kaspaAddressOfScript({ version: 0, script: ecdsa }, 'mainnet')).toBe(
      'kaspa:qypkgsdgzj89sy3anxlkyamuxkjv064kst76jajw0wqy022vphspf4gxj4qr5m5',
    );
  });

  it('says nothing for a non-standard script or another script version', () => {
    expect(kaspaAddressOfScript({ version: 0, script: Uint8Array.from([0x51]) }, 'mainnet')).toBeUndefined();
    const script = hexToBytes(MAINNET_BLOCK.coinbaseScript, 'script');
    expect(kaspaAddressOfScript({ version: 1, script }, 'mainnet')).toBeUndefined();
  });
});
