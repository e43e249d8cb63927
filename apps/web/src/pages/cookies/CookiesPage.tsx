import { useTranslation } from 'react-i18next';
import { TextPage, useSections } from '../../components/TextPage';

export default function CookiesPage() {
  const { t } = useTranslation();
  return (
    <TextPage
      title={t('cookies.title')}
      lead={t('cookies.lead')}
      sections={useSections('cookies.sections')}
    />
  );
}
