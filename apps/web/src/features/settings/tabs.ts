/** The Settings page's side tabs, in order (a plain module: the e2e tests read it too). */
export const SETTINGS_TABS = [
  'appearance',
  'language',
  'notifications',
  'security',
  'monitoring',
  'account',
  'wallet',
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];
