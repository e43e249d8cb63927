import { useTranslation } from 'react-i18next';
import { TextPage, useSections } from '../../components/TextPage';

export default function TermsPage() {
  const { t } = useTranslation();
  return (
    <TextPage title={t('terms.title')} lead={t('terms.lead')} sections={useSections('terms.sections')} />
  );
}
