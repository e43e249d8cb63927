// The Bitcoin family (BTC on bcoin, LTC on Debian's litecoind) for the scripts: see ../families.mjs.
export default {
  // litecoind: the Scrypt regtest chain (bcoin, the SHA-256d chain, is an npm package).
  packages: { chain: ['litecoind'] },
  binaries: { litecoind: '/usr/lib/litecoin/litecoind' },
  // The Stratum V2 reference translator (cargo install of translator_sv2); without cargo the
  // translator interop test fails with the same message, and the rest runs.
  testTools: [
    {
      name: 'translator_sv2',
      async ensure() {
        const { ensureTranslator } = await import('../sri.mjs');
        const translator = await ensureTranslator({ quiet: false });
        return translator.ok
          ? `translator_sv2 ${translator.built ? 'built' : 'ready'}: ${translator.binary}`
          : translator.reason;
      },
    },
  ],
  server: {
    assets: ['coins/bitcoin/stratum/scrypt-worker.mjs', 'coins/bitcoin/devchain/bcoin-runner.cjs'],
    // The V2 handshake thread: a worker opens it by path beside cli.js.
    entries: ['coins/bitcoin/stratum-v2/handshake-worker.ts'],
  },
  tier: {
    vitest: [
      'apps/server/src/coins/bitcoin/',
      'apps/server/src/config/families/bitcoin',
      'packages/protocol/src/',
    ],
    about: 'the Bitcoin family (BTC and LTC): bcoin and litecoind, V1 and V2 (with the protocol package)',
  },
};
