// Regtest dev chains for the quickstart and the tests: bcoin (SHA-256d) and a litecoind pair (Scrypt).
export type { DevChain, DevChainOptions, DevCoin, MwebMode, RpcEndpoint } from './types.js';
export { DEV_COINS, MWEB_MODES } from './types.js';
export { startBtcDevChain, BTC_INITIAL_BLOCKS } from '../coins/bitcoin/devchain/btc.js';
export {
  startLtcDevChain,
  LTC_INITIAL_BLOCKS,
  LTC_MWEB_ACTIVATION_HEIGHT,
} from '../coins/bitcoin/devchain/ltc.js';
export { ensureLitecoind, LITECOIND_PATH } from '../coins/bitcoin/devchain/litecoind.js';
