export * from './tables.js';
export * from './common.js';
export * from './networks.js';
export * from './estimate.js';
// Money per coin is defined once, in the protocol package (no imports, safe for the web bundle).
export {
  COIN_DECIMALS,
  decimalsOf,
  baseUnitsToDecimal,
  parseCoinAmount,
  type MoneyCoin,
} from '@manjam/protocol/money';
export * from './messages.js';
export * from './fields.js';
export * from './auth.js';
export * from './settings.js';
export * from './dashboard.js';
export * from './miners.js';
export * from './workers.js';
export * from './revenue.js';
export * from './pool.js';
export * from './live.js';
export * from './assistant.js';
export * from './operator.js';
export * from './monitoring.js';
export * from './alerts.js';
