import bcoin from 'bcoin';
import { bech32, bech32m } from 'bech32';
import { describe, expect, it } from 'vitest';
import { AddressError, addressToOutputScript, decodeAddress, isValidAddress } from './address.js';
import { coinParams, type BitcoinFamilyCoin, type Network } from './coins.js';

type Vector = [coin: BitcoinFamilyCoin, network: Network, address: string, scriptHex: string];

// Bitcoin Core src/test/data/key_io_valid.json (address -> scriptPubKey), BIP173 and BIP350.
const BTC_VECTORS: Vector[] = [
  [
    'BTC',
    'mainnet',
    '1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo',
    '76a914a31c06bd463e3923bc1aadbde48b16976c08071788ac',
  ],
  ['BTC', 'mainnet', '36j4NfKv6Akva9amjWrLG6MuSQym1GuEmm', 'a914373b819a068f32b7a6b38b6b38729647cfde01c287'],
  [
    'BTC',
    'mainnet',
    'bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv',
    '00146100fc6343edc8c874496cb2f5bbfec88ea9b77c',
  ],
  [
    'BTC',
    'mainnet',
    'bc1qyucykdlhp62tezs0hagqury402qwhk589q80tqs5myh3rxq34nwqhkdhv7',
    '002027304b37f70e94bc8a0fbf500e0c957a80ebda87280ef58214d92f119811acdc',
  ],
  [
    'BTC',
    'mainnet',
    'bc1p83n3au0rjylefxq2nc2xh2y4jzz4pm6zxj4mw5pagdjjr2a9f36s6jjnnu',
    '51203c671ef1e3913f94980a9e146ba895908550ef4234abb7503d436521aba54c75',
  ],
  [
    'BTC',
    'mainnet',
    'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
    '0014751e76e8199196d454941c45d1b3a323f1433bd6',
  ],
  [
    'BTC',
    'mainnet',
    'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    '512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
  ],
  [
    'BTC',
    'testnet',
    'mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ',
    '76a914ce28b26c57472737f5c3561a1761185bd8589a4388ac',
  ],
  ['BTC', 'testnet', '2NC2hEhe28ULKAJkW5MjZ3jtTMJdvXmByvK', 'a914ce0bba75891ff9ec60148d4bd4a09ee2dc5c933187'],
  [
    'BTC',
    'testnet',
    'tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54',
    '0014c0ef1202759fff90ff19128936814321ee59e111',
  ],
  [
    'BTC',
    'testnet',
    'tb1quyl9ujpgwr2chdzdnnalen48sup245vdfnh2jxhsuq3yx80rrwlq5hqfe4',
    '0020e13e5e482870d58bb44d9cfbfccea78702aad18d4ceea91af0e022431de31bbe',
  ],
  [
    'BTC',
    'testnet',
    'tb1p35n52jy6xkm4wd905tdy8qtagrn73kqdz73xe4zxpvq9t3fp50aqk3s6gz',
    '51208d2745489a35b75734afa2da43817d40e7e8d80d17a26cd4460b0055c521a3fa',
  ],
  // bcoin regtest (its wallet hands these out): R... P2PKH, G... P2SH, rb1 bech32.
  [
    'BTC',
    'regtest',
    'RKxTdfmtxtfLDKZBgx6SvNkBtNu9jRYnLh',
    '76a914751e76e8199196d454941c45d1b3a323f1433bd688ac',
  ],
  ['BTC', 'regtest', 'GUXByHDZLvU4DnVH9imSFckt3HEQ5cFgE5', 'a914751e76e8199196d454941c45d1b3a323f1433bd687'],
  [
    'BTC',
    'regtest',
    'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn',
    '0014751e76e8199196d454941c45d1b3a323f1433bd6',
  ],
];

// Litecoin Core key_io_valid.json (legacy) and BIP173's program under Litecoin's regtest prefix.
const LTC_VECTORS: Vector[] = [
  [
    'LTC',
    'mainnet',
    'LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA',
    '76a914558dbca7118cd5894502767c7b2ffc21a22f54db88ac',
  ],
  ['LTC', 'mainnet', 'MHrYRxAiMNBTku3eoDHwhA1LQGDjUStZW2', 'a9146d328a5b2a20d943a641c8d29b6cc3c2d2df85d387'],
  ['LTC', 'mainnet', '36j4NfKv6Akva9amjWrLG6MuSQym1GuEmm', 'a914373b819a068f32b7a6b38b6b38729647cfde01c287'],
  [
    'LTC',
    'testnet',
    'mwXn5Vhicdav8Av3KMokx4YNuHoGRKxtWs',
    '76a914afa9e672141e283dfbcc1cf28f3793a856d3878488ac',
  ],
  ['LTC', 'testnet', 'QXaUgLHkZcbJb2j5XgMYzY8cF9YM48Y81Z', 'a9147860667e60a6545e18e541984094b29c9c46991b87'],
  [
    'LTC',
    'regtest',
    'mpWvR79tSrA5xeziB6mjNYWdaVRwBpgnUP',
    '76a91462b790654f809d32202587c6a43456ffc1965d8388ac',
  ],
  ['LTC', 'regtest', 'QgDNrG4nJpE4VV7PcFMFhkTgwAHWxWS7pj', 'a914d71bee7a1395c10c9ca9a7f53ac086b53e74369d87'],
  [
    'LTC',
    'regtest',
    'rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3',
    '0014751e76e8199196d454941c45d1b3a323f1433bd6',
  ],
];

/** A BIP173/BIP350 vector re-encoded under another coin's prefix (same words, new checksum). */
function reencode(address: string, hrp: string): string {
  const lower = address.toLowerCase();
  const isV0 = lower[lower.indexOf('1') + 1] === 'q';
  const lib = isV0 ? bech32 : bech32m;
  const decoded = lib.decode(lower, 90);
  return lib.encode(hrp, decoded.words, 90);
}

const CONVERTED: Vector[] = [
  [
    'LTC',
    'mainnet',
    reencode('bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', 'ltc'),
    '00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262',
  ],
  [
    'LTC',
    'mainnet',
    reencode('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'ltc'),
    '512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
  ],
  [
    'LTC',
    'testnet',
    reencode('tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'tltc'),
    '00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262',
  ],
  [
    'LTC',
    'testnet',
    reencode('tb1p35n52jy6xkm4wd905tdy8qtagrn73kqdz73xe4zxpvq9t3fp50aqk3s6gz', 'tltc'),
    '51208d2745489a35b75734afa2da43817d40e7e8d80d17a26cd4460b0055c521a3fa',
  ],
  [
    'LTC',
    'regtest',
    reencode('bcrt1qan8gntac7z7me2ejt4hpru42ad2f759fmy0m3ejvs98656znv7eqga4uhv', 'rltc'),
    '0020ecce89afb8f0bdbcab325d6e11f2aaeb549f50a9d91fb8e64c814faa685367b2',
  ],
  [
    'LTC',
    'regtest',
    reencode('bcrt1pfwxjqvtt4tcxrtdluukfmy2dv7xd2qzdfy6kajv5nwn4yam3wxkq3553uh', 'rltc'),
    '51204b8d20316baaf061adbfe72c9d914d678cd5004d49356ec9949ba752777171ac',
  ],
];

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof AddressError) return error.reason;
    throw error;
  }
  return undefined;
}

describe('addressToOutputScript', () => {
  it.each([...BTC_VECTORS, ...LTC_VECTORS, ...CONVERTED])(
    'pays %s %s address %s with script %s',
    (coin, network, address, scriptHex) => {
      expect(addressToOutputScript(address, coinParams(coin, network)).toString('hex')).toBe(scriptHex);
    },
  );

  it('names the address type a miner entered', () => {
    const btc = coinParams('BTC', 'mainnet');
    expect(decodeAddress('1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo', btc).type).toBe('p2pkh');
    expect(decodeAddress('36j4NfKv6Akva9amjWrLG6MuSQym1GuEmm', btc).type).toBe('p2sh');
    expect(decodeAddress('bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv', btc).type).toBe('p2wpkh');
    expect(decodeAddress('bc1qyucykdlhp62tezs0hagqury402qwhk589q80tqs5myh3rxq34nwqhkdhv7', btc).type).toBe(
      'p2wsh',
    );
    expect(decodeAddress('bc1p83n3au0rjylefxq2nc2xh2y4jzz4pm6zxj4mw5pagdjjr2a9f36s6jjnnu', btc).type).toBe(
      'p2tr',
    );
  });

  it('agrees with bcoin on every Bitcoin address bcoin understands', () => {
    const names: Record<Network, string> = { mainnet: 'main', testnet: 'testnet', regtest: 'regtest' };
    const legacyOrV0 = BTC_VECTORS.filter(([, , address]) => {
      const lower = address.toLowerCase();
      // bcoin 1.0 knows no BIP350 taproot.
      return !/^(bc|tb|rb)1p/.test(lower);
    });
    expect(legacyOrV0.length).toBeGreaterThan(8);
    for (const [, network, address] of legacyOrV0) {
      const ours = addressToOutputScript(address, coinParams('BTC', network));
      const theirs = bcoin.Script.fromAddress(bcoin.Address.fromString(address, names[network])).toRaw();
      expect(ours.toString('hex'), address).toBe(theirs.toString('hex'));
    }
  });

  it('pays the same key on every Litecoin network as bcoin pays its Bitcoin address', () => {
    // One public key's addresses as a multi-chain wallet's test suite lists them.
    const btc = bcoin.Script.fromAddress(
      bcoin.Address.fromString('bc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawlht528', 'main'),
    );
    const expected = btc.toRaw().toString('hex');
    expect(expected).toMatch(/^0014[0-9a-f]{40}$/);
    const ltc: [Network, string][] = [
      ['mainnet', 'ltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawmt3sjh'],
      ['testnet', 'tltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawvejepa'],
      ['regtest', 'rltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawf4nr3r'],
    ];
    for (const [network, address] of ltc) {
      expect(addressToOutputScript(address, coinParams('LTC', network)).toString('hex')).toBe(expected);
    }
  });

  it('rejects an MWEB address because a coinbase cannot pay it', () => {
    const mweb =
      'ltcmweb1qq20e2arnhvxw97katjkmsd35agw3capxjkrkh7dk8d30rczm8ypxuq329nwh2twmchhqn3jqh7ua4ps539f6aazh79jy76urqht4qa59ts3at6gf';
    expect(reasonOf(() => addressToOutputScript(mweb, coinParams('LTC', 'mainnet')))).toBe('mweb');
    expect(() => addressToOutputScript(mweb, coinParams('LTC', 'mainnet'))).toThrow(/MWEB/);
    expect(
      reasonOf(() => addressToOutputScript('tmweb1' + 'q'.repeat(100), coinParams('LTC', 'testnet'))),
    ).toBe('mweb');
  });

  it('rejects an address of another network with reason network', () => {
    expect(
      reasonOf(() =>
        addressToOutputScript('tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54', coinParams('BTC', 'mainnet')),
      ),
    ).toBe('network');
    expect(
      reasonOf(() =>
        addressToOutputScript('1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo', coinParams('LTC', 'mainnet')),
      ),
    ).toBe('network');
    expect(
      reasonOf(() =>
        addressToOutputScript('LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA', coinParams('BTC', 'mainnet')),
      ),
    ).toBe('network');
    expect(
      reasonOf(() =>
        addressToOutputScript('ltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawmt3sjh', coinParams('BTC', 'mainnet')),
      ),
    ).toBe('network');
    expect(
      reasonOf(() =>
        addressToOutputScript('rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn', coinParams('BTC', 'testnet')),
      ),
    ).toBe('network');
  });

  it("refuses Bitcoin Core's regtest addresses and taproot on BTC regtest: the dev chain's bcoin wallet cannot pay them", () => {
    const regtest = coinParams('BTC', 'regtest');
    const core = [
      'n4fajahJrAuKbN7uNsKjLjQkz9Qn5ewJXQ',
      '2MxFajLApXpYk4VodBSZSt7rw8y4ryABkfA',
      'bcrt1qdavt4j2sd7dlhqsavtnfxvzppw6k7qy97tmnu9',
      'bcrt1qan8gntac7z7me2ejt4hpru42ad2f759fmy0m3ejvs98656znv7eqga4uhv',
    ];
    for (const address of core) {
      expect(
        reasonOf(() => addressToOutputScript(address, regtest)),
        address,
      ).toBe('network');
      // bcoin's own answer when its regtest wallet is asked to pay one (sendmany).
      expect(() => bcoin.Address.fromString(address, 'regtest'), address).toThrow();
    }
    const taproot = reencode('bcrt1pfwxjqvtt4tcxrtdluukfmy2dv7xd2qzdfy6kajv5nwn4yam3wxkq3553uh', 'rb');
    expect(reasonOf(() => addressToOutputScript(taproot, regtest))).toBe('unsupported');
    expect(() => bcoin.Address.fromString(taproot, 'regtest')).toThrow();
    expect(isValidAddress('rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn', regtest)).toBe(true);
  });

  it('rejects a typo with reason checksum', () => {
    const btc = coinParams('BTC', 'mainnet');
    expect(reasonOf(() => addressToOutputScript('1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mp', btc))).toBe('checksum');
    expect(reasonOf(() => addressToOutputScript('bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhw', btc))).toBe(
      'checksum',
    );
  });

  it('rejects a bech32 checksum on a taproot address and bech32m on a v0 address (BIP350)', () => {
    const btc = coinParams('BTC', 'mainnet');
    // BIP350 invalid vectors.
    expect(
      reasonOf(() =>
        addressToOutputScript('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', btc),
      ),
    ).toBe('checksum');
    expect(reasonOf(() => addressToOutputScript('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', btc))).toBe(
      'checksum',
    );
  });

  it('rejects a v0 witness program of the wrong length with reason format', () => {
    const btc = coinParams('BTC', 'mainnet');
    expect(reasonOf(() => addressToOutputScript('BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', btc))).toBe('format');
  });

  it('rejects future witness versions as unsupported', () => {
    expect(reasonOf(() => addressToOutputScript('bc1z2rksukkjr8', coinParams('BTC', 'mainnet')))).toBe(
      'unsupported',
    );
    expect(
      reasonOf(() =>
        addressToOutputScript('tb1rgv5m6uvdk3kc7qsuz0c79v88ycr5w4wa', coinParams('BTC', 'testnet')),
      ),
    ).toBe('unsupported');
  });

  it('rejects empty, padded and garbage input with reason format', () => {
    const btc = coinParams('BTC', 'mainnet');
    expect(reasonOf(() => addressToOutputScript('', btc))).toBe('format');
    expect(reasonOf(() => addressToOutputScript(' 1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo', btc))).toBe('format');
    expect(reasonOf(() => addressToOutputScript('hello world', btc))).toBe('format');
    expect(reasonOf(() => addressToOutputScript('0x52908400098527886E0F7030069857D2E4169EE7', btc))).toBe(
      'format',
    );
  });

  it('answers isValidAddress without throwing', () => {
    expect(isValidAddress('bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv', coinParams('BTC', 'mainnet'))).toBe(
      true,
    );
    expect(isValidAddress('bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv', coinParams('LTC', 'mainnet'))).toBe(
      false,
    );
    expect(isValidAddress('nonsense', coinParams('LTC', 'mainnet'))).toBe(false);
  });
});
