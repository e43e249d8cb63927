// The Monero family (XMR) for the scripts: see ../families.mjs.
export default {
  // monero: monerod and monero-wallet-rpc, the RandomX regtest chain; librandomx-dev: the RandomX
  // addon `npm ci` builds (needed before it, by every tier).
  packages: { chain: ['monero'], build: ['librandomx-dev'] },
  binaries: { monero: '/usr/bin/monerod' },
  tier: {
    vitest: [
      'apps/server/src/coins/monero/',
      'apps/server/src/config/families/monero',
      'packages/protocol/src/monero/',
      'packages/randomx/',
    ],
    about: 'the Monero family (XMR): monerod, the wallet, RandomX',
  },
};
