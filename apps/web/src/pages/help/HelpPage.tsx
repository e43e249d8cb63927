import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TextPage, useSections } from '../../components/TextPage';

export default function HelpPage() {
  const { t } = useTranslation();
  return (
    <TextPage title={t('help.title')} lead={t('help.lead')} sections={useSections('help.sections')}>
      <p>{t('help.more')}</p>
      <p className="row">
        <Link to="/support" className="btn btn--ghost">
          {t('footer.links.support')}
        </Link>
        <Link to="/faq" className="btn btn--ghost">
          {t('footer.links.faq')}
        </Link>
      </p>
    </TextPage>
  );
}
