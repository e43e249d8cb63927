// Regtest dev chains for the quickstart and the tests: bcoin (SHA-256d) and a litecoind pair (Scrypt).
export type { DevChain, DevChainOptions, DevCoin, MwebMode, RpcEndpoint } from '../../../devchain/types.js';
export { DEV_COINS, MWEB_MODES } from '../../../devchain/types.js';
export { startBtcDevChain, BTC_INITIAL_BLOCKS } from './btc.js';
export { startLtcDevChain, LTC_INITIAL_BLOCKS, LTC_MWEB_ACTIVATION_HEIGHT } from './ltc.js';
export { ensureLitecoind, LITECOIND_PATH } from './litecoind.js';
