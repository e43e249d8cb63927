import { isPayableAddress } from '@manjam/protocol';
import { encodeKaspaAddress, hexToBytes } from '@manjam/protocol/kaspa';
import { describe, expect, it } from 'vitest';
import { POOL_COINS, type PoolCoin } from './tables.js';
import { addressStarts, looksLikePayableAddress, NETWORKS, type Network } from './networks.js';

/** A public key of kaspad's address tests under each Kaspa prefix (one payload, four networks). */
function kaspa(
  network: 'mainnet' | 'testnet' | 'devnet' | 'simnet',
  kind: 'pubkey' | 'pubkey-ecdsa' | 'scripthash',
): string {
  const payload = {
    pubkey: 'e34cce70c86373273efcc54ce7d2a491bb4a0e84e34cce70c86373273efce34c',
    'pubkey-ecdsa': '02f1d3780546da20728ea8a1f5e5e51b8438002cd7c8382aafa7ddf680e12557e4',
    scripthash: 'c579342c2c4c9220205e2cdc285617040c924a0ae8c300c87986efa84c37e8c3',
  }[kind];
  return encodeKaspaAddress({ network, kind, payload: hexToBytes(payload, 'payload') });
}

/**
 * Real addresses (Bitcoin Core's key_io_valid.json, BIP173/BIP350, Litecoin Core, bcoin's regtest
 * wallet, Monero's wallet2 tests on each network, kaspad's address tests), each with the coin
 * and the pool networks the server pays it on (none: an address no pool network pays).
 */
const VECTORS: { coin: PoolCoin; address: string; paidOn: Network[]; looksOn?: Network[]; what: string }[] = [
  { coin: 'BTC', paidOn: ['mainnet'], what: 'P2PKH', address: '1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo' },
  { coin: 'BTC', paidOn: ['mainnet'], what: 'P2SH', address: '36j4NfKv6Akva9amjWrLG6MuSQym1GuEmm' },
  { coin: 'BTC', paidOn: ['mainnet'], what: 'P2WPKH', address: 'bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv' },
  {
    coin: 'BTC',
    paidOn: ['mainnet'],
    what: 'P2WPKH upper case',
    address: 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
  },
  {
    coin: 'BTC',
    paidOn: ['mainnet'],
    what: 'P2WSH',
    address: 'bc1qyucykdlhp62tezs0hagqury402qwhk589q80tqs5myh3rxq34nwqhkdhv7',
  },
  {
    coin: 'BTC',
    paidOn: ['mainnet'],
    what: 'taproot',
    address: 'bc1p83n3au0rjylefxq2nc2xh2y4jzz4pm6zxj4mw5pagdjjr2a9f36s6jjnnu',
  },
  { coin: 'BTC', paidOn: ['testnet'], what: 'P2PKH', address: 'mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ' },
  { coin: 'BTC', paidOn: ['testnet'], what: 'P2SH', address: '2NC2hEhe28ULKAJkW5MjZ3jtTMJdvXmByvK' },
  { coin: 'BTC', paidOn: ['testnet'], what: 'P2WPKH', address: 'tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54' },
  {
    coin: 'BTC',
    paidOn: ['testnet'],
    what: 'P2WSH',
    address: 'tb1quyl9ujpgwr2chdzdnnalen48sup245vdfnh2jxhsuq3yx80rrwlq5hqfe4',
  },
  {
    coin: 'BTC',
    paidOn: ['testnet'],
    what: 'taproot',
    address: 'tb1p35n52jy6xkm4wd905tdy8qtagrn73kqdz73xe4zxpvq9t3fp50aqk3s6gz',
  },
  { coin: 'BTC', paidOn: ['regtest'], what: 'bcoin P2PKH', address: 'RKxTdfmtxtfLDKZBgx6SvNkBtNu9jRYnLh' },
  { coin: 'BTC', paidOn: ['regtest'], what: 'bcoin P2SH', address: 'GUXByHDZLvU4DnVH9imSFckt3HEQ5cFgE5' },
  {
    coin: 'BTC',
    paidOn: ['regtest'],
    what: 'bcoin P2WPKH',
    address: 'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn',
  },
  {
    coin: 'BTC',
    paidOn: ['regtest'],
    what: 'bcoin P2WSH',
    address: 'rb1qan8gntac7z7me2ejt4hpru42ad2f759fmy0m3ejvs98656znv7eqracudp',
  },
  // bcoin 1.0 cannot pay taproot: the form lets it through, the server refuses it (and says why).
  {
    coin: 'BTC',
    paidOn: [],
    looksOn: ['regtest'],
    what: 'bcoin taproot',
    address: 'rb1pfwxjqvtt4tcxrtdluukfmy2dv7xd2qzdfy6kajv5nwn4yam3wxkq65e3x6',
  },
  {
    coin: 'BTC',
    paidOn: [],
    what: "Core's regtest P2WPKH (bcoin cannot pay it)",
    address: 'bcrt1qs758ursh4q9z627kt3pp5yysm78ddny6txaqgw',
  },
  { coin: 'LTC', paidOn: ['mainnet'], what: 'P2PKH', address: 'LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA' },
  { coin: 'LTC', paidOn: ['mainnet'], what: 'P2SH', address: 'MHrYRxAiMNBTku3eoDHwhA1LQGDjUStZW2' },
  { coin: 'LTC', paidOn: ['mainnet'], what: 'legacy P2SH', address: '36j4NfKv6Akva9amjWrLG6MuSQym1GuEmm' },
  {
    coin: 'LTC',
    paidOn: ['mainnet'],
    what: 'P2WPKH',
    address: 'ltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawmt3sjh',
  },
  {
    coin: 'LTC',
    paidOn: ['mainnet'],
    what: 'P2WSH',
    address: 'ltc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qmu8tk5',
  },
  {
    coin: 'LTC',
    paidOn: ['mainnet'],
    what: 'taproot',
    address: 'ltc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqpj6zg2',
  },
  {
    coin: 'LTC',
    paidOn: ['testnet', 'regtest'],
    what: 'P2PKH',
    address: 'mwXn5Vhicdav8Av3KMokx4YNuHoGRKxtWs',
  },
  {
    coin: 'LTC',
    paidOn: ['testnet', 'regtest'],
    what: 'P2SH',
    address: 'QXaUgLHkZcbJb2j5XgMYzY8cF9YM48Y81Z',
  },
  {
    coin: 'LTC',
    paidOn: ['testnet'],
    what: 'P2WPKH',
    address: 'tltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawvejepa',
  },
  {
    coin: 'LTC',
    paidOn: ['testnet'],
    what: 'taproot',
    address: 'tltc1p35n52jy6xkm4wd905tdy8qtagrn73kqdz73xe4zxpvq9t3fp50aqfjvmha',
  },
  {
    coin: 'LTC',
    paidOn: ['regtest'],
    what: 'P2WPKH',
    address: 'rltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawf4nr3r',
  },
  {
    coin: 'LTC',
    paidOn: ['regtest'],
    what: 'P2WSH',
    address: 'rltc1qan8gntac7z7me2ejt4hpru42ad2f759fmy0m3ejvs98656znv7eqq7lrcp',
  },
  {
    coin: 'LTC',
    paidOn: ['regtest'],
    what: 'taproot',
    address: 'rltc1pfwxjqvtt4tcxrtdluukfmy2dv7xd2qzdfy6kajv5nwn4yam3wxkqeh7wn6',
  },
  {
    coin: 'XMR',
    paidOn: ['mainnet', 'regtest'],
    what: 'standard',
    address:
      '43SE2g2W29fPioBafSyQd4MZFPnHmY1qYYuiutALpFijYeDcNidCVeVf6B5yboWQujRTkxAWcxRY3KdH6vKEDAajPhmzzGA',
  },
  {
    coin: 'XMR',
    paidOn: ['mainnet', 'regtest'],
    what: 'subaddress',
    address:
      '85WPgwcte7C88AtQwDfH9e925pwQKEzDrXzFWsnmrTuoPEa7u3i8RAdRbQvWajj2SrTTrAi1je3JNGo3zoJrh2tDK6PD1Z4',
  },
  {
    coin: 'XMR',
    paidOn: ['mainnet', 'regtest'],
    what: 'integrated',
    address:
      '4D8u3UqzdRBPioBafSyQd4MZFPnHmY1qYYuiutALpFijYeDcNidCVeVf6B5yboWQujRTkxAWcxRY3KdH6vKEDAajadeDWZ6VnVrU267N6f',
  },
  {
    coin: 'XMR',
    paidOn: ['testnet'],
    what: 'standard',
    address:
      '9yTSHsuDQ9MVxtodniSZWbXQn5H2bZduMWaxfKMN9PGgDaNLCxd3JyEXWSSYYy9w3J7RdFd4qVQAE9E4HpUuh6SEQTrVnHf',
  },
  {
    coin: 'XMR',
    paidOn: ['testnet'],
    what: 'subaddress',
    address:
      'BgvGCDYkAeDjN7zFA4ZkKw2uBJE78WzUwAvabr8UdGMz2p8zveJqShZUbSdbxcyC4Xcb1QE3Ys3hWSJ8dV9GAqP7FfPT5nc',
  },
  {
    coin: 'XMR',
    paidOn: ['testnet'],
    what: 'integrated',
    address:
      'A9A7Jgii1QsVxtodniSZWbXQn5H2bZduMWaxfKMN9PGgDaNLCxd3JyEXWSSYYy9w3J7RdFd4qVQAE9E4HpUuh6SEbdCjvgDpEw6TyjgeQZ',
  },
  {
    coin: 'XMR',
    paidOn: [],
    what: 'stagenet standard',
    address:
      '54MachcpeQNH42hMjGgX2TXHHAjdMBt2qG5LEwAj47gD5fYhDCJsiRcjLBwe2ESap5Wwjk4x77LaMALA6m5PNj9AUScd8ws',
  },
  {
    coin: 'XMR',
    paidOn: [],
    what: 'stagenet subaddress',
    address:
      '775EChcZy3A6ZRdKJUcCgMdVefWiyvLF3VVdSsjXD3UqL2kaXcVvDuXaVGW2HZViQS64FAPTjtAHr3tnVmS7527cDsDw8iZ',
  },
  {
    coin: 'XMR',
    paidOn: [],
    what: 'stagenet integrated',
    address:
      '5E4FdWSKFftH42hMjGgX2TXHHAjdMBt2qG5LEwAj47gD5fYhDCJsiRcjLBwe2ESap5Wwjk4x77LaMALA6m5PNj9AheSxRjha8ZiU3HY5Q6',
  },
  {
    coin: 'KAS',
    paidOn: ['mainnet'],
    what: 'Schnorr',
    address: 'kaspa:qr35ennsep3hxfe7lnz5ee7j5jgmkjswsn35ennsep3hxfe7ln35cdv0dy335',
  },
  {
    coin: 'KAS',
    paidOn: ['mainnet'],
    what: 'ECDSA',
    address: 'kaspa:qypkgsdgzj89sy3anxlkyamuxkjv064kst76jajw0wqy022vphspf4gxj4qr5m5',
  },
  {
    coin: 'KAS',
    paidOn: ['mainnet'],
    what: 'script hash',
    address: 'kaspa:pr5vxqxg0xrwl2zvxlq9rxffqx00sm44kn5vxqxg0xrwl2zvxl5vxyhvsake2',
  },
  {
    coin: 'KAS',
    paidOn: ['mainnet'],
    what: 'Schnorr upper case',
    address: 'KASPA:QR35ENNSEP3HXFE7LNZ5EE7J5JGMKJSWSN35ENNSEP3HXFE7LN35CDV0DY335',
  },
  {
    coin: 'KAS',
    paidOn: ['testnet'],
    what: 'Schnorr',
    address: 'kaspatest:qputx94qseratdmjs0j395mq8u03er0x3l35ennsep3hxfe7ln35ckquw528z',
  },
  {
    coin: 'KAS',
    paidOn: ['testnet'],
    what: 'script hash',
    address: 'kaspatest:przhjdpv93xfygpqtckdc2zkzuzqeyj2pt5vxqxg0xrwl2zvxl5vx35yyy2h9',
  },
  { coin: 'KAS', paidOn: ['regtest'], what: 'simnet Schnorr', address: kaspa('simnet', 'pubkey') },
  { coin: 'KAS', paidOn: ['regtest'], what: 'simnet ECDSA', address: kaspa('simnet', 'pubkey-ecdsa') },
  { coin: 'KAS', paidOn: ['regtest'], what: 'simnet script hash', address: kaspa('simnet', 'scripthash') },
  { coin: 'KAS', paidOn: [], what: 'devnet Schnorr', address: kaspa('devnet', 'pubkey') },
];

describe("the web's quick address check and the server's check read one definition", () => {
  it.each(VECTORS)(
    '$coin $what is paid on exactly its networks, and the quick check agrees',
    ({ coin, address, paidOn, looksOn }) => {
      for (const network of NETWORKS) {
        const paid = isPayableAddress(coin, network, address);
        expect({ network, paid }).toEqual({ network, paid: paidOn.includes(network) });
        // The quick check never refuses what the server pays; it refuses another network's address.
        const looks = looksLikePayableAddress(coin, network, address);
        expect({ network, looks }).toEqual({ network, looks: paid || (looksOn ?? []).includes(network) });
      }
    },
  );

  it('refuses every other coin’s address in the quick check as the server does', () => {
    for (const { coin: owner, address } of VECTORS) {
      for (const coin of POOL_COINS) {
        for (const network of NETWORKS) {
          if (isPayableAddress(coin, network, address)) continue;
          const sameForm = looksLikePayableAddress(coin, network, address);
          expect(sameForm && coin !== owner ? `${coin} ${network} ${address}` : '').toBe('');
        }
      }
    }
  });

  it('lets a checksum typo through the quick check, for the server to refuse', () => {
    const typo = 'kaspa:qr35ennsep3hxfe7lnz5ee7j5jgmkjswsn35ennsep3hxfe7ln35cdv0dy336';
    expect(looksLikePayableAddress('KAS', 'mainnet', typo)).toBe(true);
    expect(isPayableAddress('KAS', 'mainnet', typo)).toBe(false);
  });

  it('refuses a truncated address, mixed case and spaces in the quick check', () => {
    const kas = kaspa('simnet', 'pubkey');
    expect(looksLikePayableAddress('KAS', 'regtest', kas.slice(0, -1))).toBe(false);
    expect(looksLikePayableAddress('KAS', 'regtest', `${kas.slice(0, 12)}Q${kas.slice(13)}`)).toBe(false);
    expect(looksLikePayableAddress('BTC', 'mainnet', ' 1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo')).toBe(false);
    expect(looksLikePayableAddress('BTC', 'mainnet', 'bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lh')).toBe(
      false,
    );
  });

  it('starts Kaspa addresses with kaspa:, kaspatest: and kaspasim: (the dev chain)', () => {
    expect(addressStarts('KAS', 'mainnet')).toEqual({ bech32: ['kaspa:'], base58: [] });
    expect(addressStarts('KAS', 'testnet')).toEqual({ bech32: ['kaspatest:'], base58: [] });
    expect(addressStarts('KAS', 'regtest')).toEqual({ bech32: ['kaspasim:'], base58: [] });
    expect(addressStarts('XMR', 'mainnet')).toEqual({ bech32: [], base58: ['4', '8'] });
    expect(addressStarts('XMR', 'testnet')).toEqual({ bech32: [], base58: ['9', 'A', 'B'] });
  });
});
