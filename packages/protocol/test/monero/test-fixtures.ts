// Real monerod 0.18.0.0 (Debian bookworm) output on a --regtest --fixed-difficulty 1 chain, and
// addresses made by monero-wallet-rpc on mainnet (regtest uses mainnet prefixes), testnet and stagenet.

/** get_block_template (reserve_size 8) at height 71: the miner transaction only. */
export const TEMPLATE_NO_TX = {
  blocktemplateBlob:
    '1010b78e9cd8068b672bff56857da65d8e59e11cbb5330d35b4d925fef0aa849d11e0751f4af060000000002830101ff4701f29193b0eeff07030fb0cb1d6a676de909fe3e0c1c7ea7a334aaee2b5182df3038d8bae806c0082ea72b0153598701f222f27a70c7a79df516e4f14fdee074e6d349d79911d49af7887bbb020800000000000000000000',
  blockhashingBlob:
    '1010b78e9cd8068b672bff56857da65d8e59e11cbb5330d35b4d925fef0aa849d11e0751f4af0600000000b80de92344109e7dc59d6e8b804ed8ed8a7fcafd5c6be79502003665f84364ed01',
  reservedOffset: 127,
  reserveSize: 8,
  height: 71,
  seedHash: '418015bb9ae982a1975da7d79277c2705727a56894ba0fb246adaabb1f4632e3',
};

/** get_block_template (reserve_size 8) at height 111 with three transactions in the mempool. */
export const TEMPLATE_THREE_TX = {
  blocktemplateBlob:
    '1010c88e9cd806b07152239fc9dfed6517fc282becbbb072c4e26f886972c3432599af503547290000000002ab0101ff6f01cad091bf8180080324a804a67da89764eb710ac7987fc7038f6403220a7ffb2c8f2dc58b811094b1342b016252b99d43e266c0fa326f90f4732d610d23324385c5d00a408a843b7f2a47d50208000000000000000000036eeaea11f2c5687ec949be061601d3fb2d5285ac67216e7a9afb6fe2a383b87f45df066856849bf0db6204e4d68b776045aaadc564b406d55961579b6cf6cce3dfc8257d3626a31ab2fd3bc11117fccf2a48733ce97aab43f675744ffa5c4d3f',
  blockhashingBlob:
    '1010c88e9cd806b07152239fc9dfed6517fc282becbbb072c4e26f886972c3432599af5035472900000000b2ac9e760d52d43d9d01f402df53174798e4ba8880094a566cae2db22151198504',
  reservedOffset: 127,
  reserveSize: 8,
  height: 111,
  seedHash: '418015bb9ae982a1975da7d79277c2705727a56894ba0fb246adaabb1f4632e3',
  /** monerod calc_pow of blockhashingBlob. */
  calcPow: '4f918f7846edc7700983c64a6b16292e0332b3b1df2afe63362f7d444fd83067',
};

/** get_block (fill_pow_hash) of the block mined at height 111 from that mempool. */
export const BLOCK_111 = {
  blob: '1010cd8e9cd806b07152239fc9dfed6517fc282becbbb072c4e26f886972c3432599af503547290000000002ab0101ff6f01cad091bf818008033539c400b13571d3312cab58b9cf6757ae0ddfd17b710d59c1b32bf80e59f9e3f524013050b8f9c4d35ad0225522533cbdf16bbadf65988972468bee8881e4e19c7a1502010000036eeaea11f2c5687ec949be061601d3fb2d5285ac67216e7a9afb6fe2a383b87f45df066856849bf0db6204e4d68b776045aaadc564b406d55961579b6cf6cce3dfc8257d3626a31ab2fd3bc11117fccf2a48733ce97aab43f675744ffa5c4d3f',
  hash: 'e6c0bdaa780877bccc570b0b87b84828e725a3f70b1516d00ef2774faae5fb31',
  powHash: '2288d40da89e4df795e0f27b9539750882097a73733127a1362e19a088fde710',
  minerTxHash: '03273641c2e2ce6055161b328cb2ce92f45f7c1b7f98d1ce901ac1ecc607e950',
  txHashes: [
    '6eeaea11f2c5687ec949be061601d3fb2d5285ac67216e7a9afb6fe2a383b87f',
    '45df066856849bf0db6204e4d68b776045aaadc564b406d55961579b6cf6cce3',
    'dfc8257d3626a31ab2fd3bc11117fccf2a48733ce97aab43f675744ffa5c4d3f',
  ],
};

export const ADDRESSES = {
  mainnet: {
    standard:
      '43SE2g2W29fPioBafSyQd4MZFPnHmY1qYYuiutALpFijYeDcNidCVeVf6B5yboWQujRTkxAWcxRY3KdH6vKEDAajPhmzzGA',
    subaddress:
      '85WPgwcte7C88AtQwDfH9e925pwQKEzDrXzFWsnmrTuoPEa7u3i8RAdRbQvWajj2SrTTrAi1je3JNGo3zoJrh2tDK6PD1Z4',
    integrated:
      '4D8u3UqzdRBPioBafSyQd4MZFPnHmY1qYYuiutALpFijYeDcNidCVeVf6B5yboWQujRTkxAWcxRY3KdH6vKEDAajadeDWZ6VnVrU267N6f',
    paymentId: '1234567890abcdef',
  },
  testnet: {
    standard:
      '9yTSHsuDQ9MVxtodniSZWbXQn5H2bZduMWaxfKMN9PGgDaNLCxd3JyEXWSSYYy9w3J7RdFd4qVQAE9E4HpUuh6SEQTrVnHf',
    subaddress:
      'BgvGCDYkAeDjN7zFA4ZkKw2uBJE78WzUwAvabr8UdGMz2p8zveJqShZUbSdbxcyC4Xcb1QE3Ys3hWSJ8dV9GAqP7FfPT5nc',
    integrated:
      'A9A7Jgii1QsVxtodniSZWbXQn5H2bZduMWaxfKMN9PGgDaNLCxd3JyEXWSSYYy9w3J7RdFd4qVQAE9E4HpUuh6SEbdCjvgDpEw6TyjgeQZ',
    paymentId: '0123456789abcdef',
  },
  stagenet: {
    standard:
      '54MachcpeQNH42hMjGgX2TXHHAjdMBt2qG5LEwAj47gD5fYhDCJsiRcjLBwe2ESap5Wwjk4x77LaMALA6m5PNj9AUScd8ws',
    subaddress:
      '775EChcZy3A6ZRdKJUcCgMdVefWiyvLF3VVdSsjXD3UqL2kaXcVvDuXaVGW2HZViQS64FAPTjtAHr3tnVmS7527cDsDw8iZ',
    integrated:
      '5E4FdWSKFftH42hMjGgX2TXHHAjdMBt2qG5LEwAj47gD5fYhDCJsiRcjLBwe2ESap5Wwjk4x77LaMALA6m5PNj9AheSxRjha8ZiU3HY5Q6',
    paymentId: '0123456789abcdef',
  },
} as const;
