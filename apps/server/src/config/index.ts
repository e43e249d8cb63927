export * from './core.js';
export { configSchema } from './schema.js';
export { loadConfig, parseConfig, type LoadOptions } from './load.js';
export { alertSettingsSchema, type AlertSettings, type AlertSettingsInput } from './alerts.js';
