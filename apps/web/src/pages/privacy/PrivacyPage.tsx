import { useTranslation } from 'react-i18next';
import { TextPage, useSections } from '../../components/TextPage';

export default function PrivacyPage() {
  const { t } = useTranslation();
  return (
    <TextPage
      title={t('privacy.title')}
      lead={t('privacy.lead')}
      sections={useSections('privacy.sections')}
    />
  );
}
