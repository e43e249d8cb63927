import { describe, expect, it } from 'vitest';
import { addressKindsKey } from '../coins/registry';
import { addressStartsText, validateWalletAddress } from './validation';

// Addresses of each coin's dev chain (the pool's regtest network) and of mainnet.
const DEV_CHAIN = {
  BTC: [
    'RKxTdfmtxtfLDKZBgx6SvNkBtNu9jRYnLh',
    'GUXByHDZLvU4DnVH9imSFckt3HEQ5cFgE5',
    'rb1qw508d6qejxtdg4y5r3zarvary0c5xw7k38f4sn',
  ],
  LTC: [
    'mpWvR79tSrA5xeziB6mjNYWdaVRwBpgnUP',
    'QgDNrG4nJpE4VV7PcFMFhkTgwAHWxWS7pj',
    'rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3',
    'rltc1pfwxjqvtt4tcxrtdluukfmy2dv7xd2qzdfy6kajv5nwn4yam3wxkqeh7wn6',
  ],
  XMR: [
    '43SE2g2W29fPioBafSyQd4MZFPnHmY1qYYuiutALpFijYeDcNidCVeVf6B5yboWQujRTkxAWcxRY3KdH6vKEDAajPhmzzGA',
    '85WPgwcte7C88AtQwDfH9e925pwQKEzDrXzFWsnmrTuoPEa7u3i8RAdRbQvWajj2SrTTrAi1je3JNGo3zoJrh2tDK6PD1Z4',
  ],
  KAS: ['kaspasim:qqrswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswpc8qurswklelyd9r'],
} as const;
const REGTEST = { BTC: 'regtest', LTC: 'regtest', XMR: 'regtest', KAS: 'regtest' } as const;

describe('the payout address quick check', () => {
  it.each(
    (Object.keys(DEV_CHAIN) as (keyof typeof DEV_CHAIN)[]).flatMap((coin) =>
      DEV_CHAIN[coin].map((address) => [coin, address] as const),
    ),
  )('accepts the %s dev chain address %s', (coin, address) => {
    expect(validateWalletAddress(address, coin, REGTEST)).toBeUndefined();
    expect(validateWalletAddress(`  ${address} `, coin, REGTEST)).toBeUndefined();
  });

  it('accepts a 61-character kaspasim: address, which the old bech32 length rule refused', () => {
    const address = DEV_CHAIN.KAS[0];
    expect(address.length - 'kaspasim:'.length).toBe(61);
    expect(validateWalletAddress(address, 'KAS', REGTEST)).toBeUndefined();
    expect(validateWalletAddress(address, 'KAS')).toBeUndefined();
  });

  it("refuses another network's or another coin's address with that coin's message", () => {
    expect(
      validateWalletAddress(
        'kaspa:qr35ennsep3hxfe7lnz5ee7j5jgmkjswsn35ennsep3hxfe7ln35cdv0dy335',
        'KAS',
        REGTEST,
      ),
    ).toBe('validation.kasInvalid');
    expect(validateWalletAddress(DEV_CHAIN.KAS[0], 'BTC', REGTEST)).toBe('validation.btcInvalid');
    expect(validateWalletAddress(DEV_CHAIN.BTC[2], 'LTC', REGTEST)).toBe('validation.ltcInvalid');
    expect(validateWalletAddress('bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv', 'BTC', REGTEST)).toBe(
      'validation.btcInvalid',
    );
    expect(validateWalletAddress(DEV_CHAIN.XMR[0].slice(1), 'XMR', REGTEST)).toBe('validation.xmrInvalid');
  });

  it('checks no listed coin (the pool never pays one)', () => {
    expect(validateWalletAddress('anything', 'DOGE', REGTEST)).toBeUndefined();
  });

  it("names how the pool's addresses start, and Monero's kinds", () => {
    expect(addressStartsText('KAS', REGTEST)).toBe('kaspasim:…');
    expect(addressStartsText('BTC', REGTEST)).toBe('rb1…, G…, R…');
    expect(addressKindsKey('XMR')).toBe('validation.xmrKinds');
    expect(addressKindsKey('KAS')).toBeUndefined();
  });
});
