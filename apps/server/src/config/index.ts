export { configSchema, type Config, type StratumPortConfig } from './schema.js';
export { loadConfig, parseConfig, redactConfig, ConfigError, type LoadOptions } from './load.js';
export * from './constants.js';
export { alertSettingsSchema, type AlertSettings, type AlertSettingsInput } from './alerts.js';
export { connectionPlan, readOpenFilesLimit, type ConnectionPlan, type OpenFilesLimit } from './fd-budget.js';
