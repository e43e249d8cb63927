import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Spinner } from '../../components/Spinner';
import { TabPanel, Tabs } from '../../components/Tabs';
import { SETTINGS_TABS, SettingsPanel, type SettingsTab } from '../../features/settings/SettingsPanels';
import { useSettingsDraft } from '../../features/settings/useSettingsDraft';
import { errorMessage } from '../../lib/errors';
import { PushNotice } from '../../features/settings/PushNotice';
import '../../features/settings/settings.css';

/** Tabs whose controls are saved with the page's 'Save Changes' button. */
const DRAFT_TABS: ReadonlySet<SettingsTab> = new Set<SettingsTab>([
  'appearance',
  'language',
  'notifications',
  'security',
  'wallet',
]);

export default function SettingsPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const asked = params.get('tab');
  const [tab, setTab] = useState<SettingsTab>(SETTINGS_TABS.find((id) => id === asked) ?? 'appearance');
  const { settings, draft, change, save, push } = useSettingsDraft();
  const tabs = SETTINGS_TABS.map((id) => ({ id, label: t(`settings.tabs.${id}`) }));
  return (
    <div className="container page">
      <h1>{t('settings.title')}</h1>
      {settings.isPending ? <Spinner size="lg" /> : null}
      {settings.isError ? (
        <ErrorBanner
          message={errorMessage(settings.error, t, t('settings.loadError'))}
          onRetry={() => void settings.refetch()}
        />
      ) : null}
      {settings.data && draft ? (
        <div className="settings">
          <Tabs
            label={t('settings.tabsLabel')}
            tabs={tabs}
            value={tab}
            onChange={setTab}
            orientation="vertical"
            idBase="settings"
          />
          <TabPanel idBase="settings" value={tab} className="settings__panel card">
            <h2>{t(`settings.tabs.${tab}`)}</h2>
            <SettingsPanel tab={tab} draft={draft} settings={settings.data} change={change} />
            {DRAFT_TABS.has(tab) ? (
              <div className="settings__actions">
                {save.isSuccess ? (
                  <p className="banner banner--success" role="status">
                    {t('settings.saved')}
                  </p>
                ) : null}
                {save.isError ? <ErrorBanner message={errorMessage(save.error, t)} /> : null}
                {push ? <PushNotice outcome={push} /> : null}
                <button
                  type="button"
                  className="btn btn--primary"
                  disabled={save.isPending}
                  onClick={() => save.mutate(draft)}
                >
                  {save.isPending ? t('settings.saving') : t('settings.save')}
                </button>
              </div>
            ) : null}
          </TabPanel>
        </div>
      ) : null}
    </div>
  );
}
