// Settings -> Language: the time zone every time on screen is shown in (and, through the server,
// notifications, the assistant and CSV files). The first option follows the browser.
import { useTranslation } from 'react-i18next';
import { Select } from '../../components/Select';
import { browserTimeZone } from '../../lib/format';

/** The select's value for "follow the browser" (the setting is null then). */
const BROWSER = '';

/** Every IANA zone this browser knows, UTC included. */
function zones(): readonly string[] {
  const known = Intl.supportedValuesOf('timeZone');
  return known.includes('UTC') ? known : ['UTC', ...known];
}

export function TimeZoneSelect({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (zone: string | null) => void;
}) {
  const { t } = useTranslation();
  const own = browserTimeZone();
  return (
    <Select<string>
      label={t('settings.timeZone')}
      hint={t('settings.timeZoneHint')}
      value={value ?? BROWSER}
      options={[
        { value: BROWSER, label: t('settings.timeZoneBrowser', { zone: `\u2066${own}\u2069` }) },
        ...zones().map((zone) => ({ value: zone, label: zone })),
      ]}
      onChange={(zone) => onChange(zone === BROWSER ? null : zone)}
    />
  );
}
