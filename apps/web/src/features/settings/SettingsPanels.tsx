import { useTranslation } from 'react-i18next';
import { Select } from '../../components/Select';
import { Toggle } from '../../components/Toggle';
import { THEMES, type Language, type Settings, type Theme } from '../../lib/api-types';
import { MonitoringPanel } from '../monitoring/MonitoringPanel';
import { AccountAlerts } from '../alerts/AccountAlerts';
import { ChangePasswordForm, UpdateEmailForm } from './AccountForms';
import { TimeZoneSelect } from './TimeZoneSelect';
import { PayoutAddressSection } from './PayoutAddressSection';
import { TwoFactorSection } from './TwoFactorSection';
import type { SettingsTab } from './tabs';
import type { Draft } from './useSettingsDraft';

export { SETTINGS_TABS, type SettingsTab } from './tabs';

export interface PanelProps {
  tab: SettingsTab;
  draft: Draft;
  settings: Settings;
  change: (patch: Partial<Draft>) => void;
}

/** The controls of one settings tab of the Settings page. */
export function SettingsPanel({ tab, draft, settings, change }: PanelProps) {
  const { t } = useTranslation();
  switch (tab) {
    case 'appearance':
      return (
        <>
          <Toggle
            label={t('settings.darkMode')}
            checked={draft.darkMode}
            onChange={(darkMode) => change({ darkMode })}
          />
          <Toggle
            label={t('settings.showBalance')}
            checked={draft.showBalance}
            onChange={(showBalance) => change({ showBalance })}
          />
          <Toggle
            label={t('settings.showHashrate')}
            checked={draft.showHashrate}
            onChange={(showHashrate) => change({ showHashrate })}
          />
          <Select<Theme>
            label={t('settings.theme')}
            value={draft.theme}
            options={THEMES.map((theme) => ({ value: theme, label: t(`settings.themes.${theme}`) }))}
            onChange={(theme) => change({ theme })}
          />
        </>
      );
    case 'language':
      return (
        <>
          <Select<Language>
            label={t('settings.language')}
            hint={t('settings.languageHint')}
            value={draft.language}
            options={[
              { value: 'en', label: t('settings.languages.en') },
              { value: 'ar', label: t('settings.languages.ar') },
            ]}
            onChange={(language) => change({ language })}
          />
          <TimeZoneSelect value={draft.timeZone} onChange={(timeZone) => change({ timeZone })} />
        </>
      );
    case 'notifications':
      return (
        <>
          <Toggle
            label={t('settings.push')}
            description={t('settings.pushHint')}
            checked={draft.notifications}
            onChange={(notifications) => change({ notifications })}
          />
          <Toggle
            label={t('settings.email')}
            description={
              settings.emailAlertsAvailable ? t('settings.emailHint') : t('settings.emailUnavailable')
            }
            checked={draft.emailAlerts && settings.emailAlertsAvailable}
            disabled={!settings.emailAlertsAvailable}
            onChange={(emailAlerts) => change({ emailAlerts })}
          />
          <AccountAlerts />
        </>
      );
    case 'security':
      return (
        <>
          <TwoFactorSection enabled={settings.twoFactorAuth} />
          <Toggle
            label={t('settings.autoLogout')}
            description={t('settings.autoLogoutHint')}
            checked={draft.autoLogout}
            onChange={(autoLogout) => change({ autoLogout })}
          />
        </>
      );
    case 'monitoring':
      return <MonitoringPanel settings={settings} />;
    case 'account':
      return (
        <div className="stack">
          <ChangePasswordForm />
          <UpdateEmailForm />
        </div>
      );
    case 'wallet':
      return <PayoutAddressSection settings={settings} />;
  }
}
